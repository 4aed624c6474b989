package tracker

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const storeLockChildEnv = "TABLECAM_STORE_LOCK_CHILD_DB"

// Two stores on one database: the second writer is refused and told who
// writes (two play processes both resumed one session and interleaved
// events). A read-only store works beside the writer and sees its events;
// once the writer closes, another can write.
func TestStoreOneWriterPerDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tablecam.db")
	a, err := OpenStoreWith(path, StoreOptions{Command: "tablecam play --manual"})
	if err != nil {
		t.Fatal(err)
	}
	storeMustCreate(t, a, "s", "")
	storeMustAppend(t, a, "s", "k", `{}`)

	_, err = OpenStore(path)
	var locked *StoreLockedError
	if !errors.As(err, &locked) {
		t.Fatalf("second writer: err = %v, want a StoreLockedError", err)
	}
	if want := fmt.Sprintf("process %d (tablecam play --manual)", os.Getpid()); !strings.Contains(err.Error(), want) {
		t.Errorf("second writer's error %q does not say %q", err, want)
	}

	r, err := OpenStoreWith(path, StoreOptions{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only beside the writer: %v", err)
	}
	defer r.Close()
	storeMustAppend(t, a, "s", "k", `{}`)
	if n, err := r.Count(ctx, "s"); err != nil || n != 2 {
		t.Errorf("read-only store sees %d events (%v), want 2", n, err)
	}
	if _, err := r.Append(ctx, "s", "k", []byte(`{}`)); err == nil {
		t.Error("append through a read-only store succeeded")
	}

	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := OpenStore(path)
	if err != nil {
		t.Fatalf("writer after the first closed: %v", err)
	}
	b.Close()
}

// A read-only store creates nothing where there is no database.
func TestStoreReadOnlyCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	if _, err := OpenStoreWith(filepath.Join(dir, "tablecam.db"), StoreOptions{ReadOnly: true}); err == nil {
		t.Error("read-only open of a missing database succeeded")
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Errorf("read-only open created %v", names)
	}
}

// The lock holds across processes and ends with its process, however it
// ends: a second process is refused with the first's id, and after the
// first is killed the database can be opened again.
func TestStoreLockAcrossProcesses(t *testing.T) {
	if p := os.Getenv(storeLockChildEnv); p != "" {
		s, err := OpenStore(p)
		if err != nil {
			fmt.Println("error", err)
			os.Exit(2)
		}
		fmt.Println("open")
		time.Sleep(time.Minute) // killed by the parent
		s.Close()
		os.Exit(0)
	}
	path := filepath.Join(t.TempDir(), "tablecam.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestStoreLockAcrossProcesses$", "-test.count=1")
	cmd.Env = append(os.Environ(), storeLockChildEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "open\n" {
		t.Fatalf("child: %q", line)
	}
	_, err = OpenStore(path)
	if want := fmt.Sprintf("in use by process %d", cmd.Process.Pid); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("open beside another process: err = %v, want %q", err, want)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	s, err := OpenStore(path)
	if err != nil {
		t.Fatalf("open after the holder was killed: %v", err)
	}
	s.Close()
}
