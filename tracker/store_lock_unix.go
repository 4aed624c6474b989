//go:build unix

package tracker

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"
)

// storeLock takes the exclusive lock on the lock file at path without
// waiting, and writes who holds it (process id, command, since when) into
// it. The lock is the open file's: it ends when the file is closed, or
// when the process ends however it ends.
func storeLock(path, command string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := io.ReadAll(io.LimitReader(f, 4096))
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &StoreLockedError{Holder: strings.TrimSpace(string(holder))}
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	who := fmt.Sprintf("process %d (%s) since %s", os.Getpid(), command, time.Now().Format(time.DateTime))
	if err := f.Truncate(0); err == nil {
		_, err = f.WriteAt([]byte(who+"\n"), 0)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return f, nil
}
