//go:build !unix

package tracker

import "os"

// storeLock opens the lock file; without flock, it does not keep a second
// writer out on this platform.
func storeLock(path, command string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
}
