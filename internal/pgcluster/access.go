// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package pgcluster

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
)

// account is the user PostgreSQL runs as.
type account struct {
	name   string
	uid    uint32
	gid    uint32
	groups []uint32            // every gid of the user, primary included
	cred   *syscall.Credential // nil: run as this process's user
}

// serverAccount picks the user PostgreSQL runs as. A normal user runs it as itself. Root runs it as
// the owner of an existing data folder when that is not root, else as the user postgres.
func serverAccount(dataDir string) (*account, error) {
	if os.Geteuid() != 0 {
		return &account{uid: uint32(os.Geteuid()), gid: uint32(os.Getegid())}, nil
	}
	if fi, err := os.Stat(dataDir); err == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Uid != 0 {
			if u, err := user.LookupId(strconv.FormatUint(uint64(st.Uid), 10)); err == nil {
				return accountOf(u)
			}
			a := &account{name: strconv.FormatUint(uint64(st.Uid), 10), uid: st.Uid, gid: st.Gid, groups: []uint32{st.Gid}}
			a.cred = &syscall.Credential{Uid: a.uid, Gid: a.gid, Groups: []uint32{}}
			return a, nil
		}
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("PostgreSQL refuses to run as root and there is no user postgres to run it as: create that user (Debian/Ubuntu: apt-get install postgresql creates it) or run this program as a normal user")
	}
	return accountOf(u)
}

func accountOf(u *user.User) (*account, error) {
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("user %s has the uid %q, which is not a number", u.Username, u.Uid)
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("user %s has the gid %q, which is not a number", u.Username, u.Gid)
	}
	a := &account{name: u.Username, uid: uint32(uid), gid: uint32(gid), groups: []uint32{uint32(gid)}}
	if ids, err := u.GroupIds(); err == nil {
		for _, s := range ids {
			if g, err := strconv.ParseUint(s, 10, 32); err == nil && !slices.Contains(a.groups, uint32(g)) {
				a.groups = append(a.groups, uint32(g))
			}
		}
	}
	a.cred = &syscall.Credential{Uid: a.uid, Gid: a.gid, Groups: a.groups}
	return a, nil
}

// canEnter applies the permission bits the way the kernel does: owner bits for the owner, else group
// bits for a member of the group, else the other bits.
func (a *account) canEnter(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return true
	}
	perm := fi.Mode().Perm()
	switch {
	case st.Uid == a.uid:
		return perm&0o100 != 0
	case slices.Contains(a.groups, st.Gid):
		return perm&0o010 != 0
	default:
		return perm&0o001 != 0
	}
}

// blockingFolder returns the first folder on the way to dir (dir included) that the account
// cannot enter, checking both the path as written and the path with its symlinks resolved.
func (a *account) blockingFolder(dir string) (string, os.FileMode, bool) {
	paths := []string{dir}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		paths = append(paths, real)
	}
	for _, p := range paths {
		var chain []string
		for q := p; ; q = filepath.Dir(q) {
			chain = append(chain, q)
			if q == filepath.Dir(q) {
				break
			}
		}
		for i := len(chain) - 1; i >= 0; i-- {
			fi, err := os.Stat(chain[i])
			if err != nil {
				break
			}
			if !a.canEnter(fi) {
				return chain[i], fi.Mode().Perm(), true
			}
		}
	}
	return "", 0, false
}

func (a *account) checkReach(dir string) error {
	if a.cred == nil {
		return nil
	}
	if p, mode, blocked := a.blockingFolder(dir); blocked {
		return fmt.Errorf("PostgreSQL runs as user %s, which cannot enter %s (mode %04o): set EVENTS_DATA_DIR to a folder it can reach, or chmod o+x %s", a.name, p, mode, p)
	}
	return nil
}

func (a *account) chown(path string) error {
	if a.cred == nil {
		return nil
	}
	return os.Chown(path, int(a.uid), int(a.gid))
}
