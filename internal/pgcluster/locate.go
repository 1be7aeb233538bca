// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package pgcluster

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Moved returns the folder under opts.SharedRoot (DefaultSharedRoot when empty) that holds the
// cluster of opts when Start moved it there (run as root, when PostgreSQL's user could not enter
// the project folder), with its log, owner and origin files beside it; "" when there is none.
// It creates and changes nothing: it is for removing the cluster (events reset-data).
func Moved(opts Options) (string, error) {
	dataDir, err := filepath.Abs(opts.DataDir)
	if err != nil {
		return "", err
	}
	shared := opts.SharedRoot
	if shared == "" {
		shared = DefaultSharedRoot
	}
	dir := filepath.Dir(sharedDataDir(shared, dataDir))
	switch _, err := os.Stat(dir); {
	case err == nil:
		return dir, nil
	case errors.Is(err, os.ErrNotExist):
		return "", nil
	default:
		return "", err
	}
}

// Users says who uses the cluster in dataDir now: owner is the pid of the live process that holds
// it (events serve, or a backup that started it; -1 when it holds it but has not written its pid
// yet), server the pid of a PostgreSQL server running in it; 0 for none. The owner's hold is a
// lock the kernel releases when that process ends, however it ends.
func Users(dataDir string) (owner, server int) {
	if f, err := os.Open(dataDir + ".owner"); err == nil {
		if errors.Is(syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB), syscall.EWOULDBLOCK) {
			owner = readOwnerPID(dataDir + ".owner")
			if owner == 0 {
				owner = -1
			}
		}
		f.Close()
	}
	if pid := postmasterPIDOf(dataDir); processAlive(pid) && isPostmasterOf(pid, dataDir) {
		server = pid
	}
	return owner, server
}

// Files are the names Start writes beside and for a cluster whose folder is named name: the
// folder itself, its server log (and the previous one), and the owner file.
func Files(name string) []string {
	name = strings.TrimSuffix(name, string(filepath.Separator))
	return []string{name, name + ".log", name + ".log.1", name + ".owner"}
}
