package pgcluster

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrNoBinaries is returned by FindBinaries (and Start) when the PostgreSQL server programs cannot be found.
var ErrNoBinaries = errors.New("the PostgreSQL server programs (initdb, pg_ctl, postgres) are not installed: install your system's PostgreSQL server package (Debian/Ubuntu: apt-get install postgresql) or set DATABASE_URL to an existing database")

var serverPrograms = []string{"initdb", "pg_ctl", "postgres"}

const debianLibRoot = "/usr/lib/postgresql"

// FindBinaries returns the folder holding initdb, pg_ctl and postgres: the folder of initdb found on
// PATH (or the folder its symlink points into), else the newest /usr/lib/postgresql/<version>/bin
// in numeric version order. It returns ErrNoBinaries when there is none.
func FindBinaries() (string, error) {
	return findBinaries(exec.LookPath, debianLibRoot)
}

func findBinaries(lookPath func(string) (string, error), libRoot string) (string, error) {
	if p, err := lookPath("initdb"); err == nil {
		if p, err = filepath.Abs(p); err == nil {
			if dir := filepath.Dir(p); hasServerPrograms(dir) {
				return dir, nil
			}
			if real, err := filepath.EvalSymlinks(p); err == nil {
				if dir := filepath.Dir(real); hasServerPrograms(dir) {
					return dir, nil
				}
			}
		}
	}

	entries, err := os.ReadDir(libRoot)
	if err != nil {
		return "", ErrNoBinaries
	}
	var best string
	var bestVersion []int
	for _, e := range entries {
		v, ok := parseVersion(e.Name())
		if !ok {
			continue
		}
		dir := filepath.Join(libRoot, e.Name(), "bin")
		if !hasServerPrograms(dir) {
			continue
		}
		if best == "" || compareVersions(v, bestVersion) > 0 {
			best, bestVersion = dir, v
		}
	}
	if best == "" {
		return "", ErrNoBinaries
	}
	return best, nil
}

func hasServerPrograms(dir string) bool {
	for _, name := range serverPrograms {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
			return false
		}
	}
	return true
}

// parseVersion reads folder names such as "15" or "9.6".
func parseVersion(s string) ([]int, bool) {
	var v []int
	for part := range strings.SplitSeq(s, ".") {
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 {
			return nil, false
		}
		v = append(v, n)
	}
	return v, true
}

func compareVersions(a, b []int) int {
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y int
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}
