// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ErrNoBinaries is returned by FindBinaries (and Start) when the PostgreSQL server programs cannot be found.
var ErrNoBinaries = errors.New("the PostgreSQL server programs (initdb, pg_ctl, postgres) are not installed: install your system's PostgreSQL server package (Debian/Ubuntu: apt-get install postgresql) or set DATABASE_URL to an existing database")

var serverPrograms = []string{"initdb", "pg_ctl", "postgres"}

const debianLibRoot = "/usr/lib/postgresql"

// FindBinaries returns the folder of the newest installed server programs (initdb, pg_ctl,
// postgres), the ones a new cluster is made with: the newest /usr/lib/postgresql/<major>/bin, or
// the folder of initdb found on PATH (or the folder its symlink points into) when that is newer or
// the only one. It returns ErrNoBinaries when there is none.
func FindBinaries() (string, error) {
	return findBinaries(exec.LookPath, debianLibRoot, "")
}

// BinariesFor returns the folder of the server programs that can run the cluster in dataDir: those
// of the major version its PG_VERSION names, or the newest ones for a folder that holds no cluster
// yet. When that major is not installed, the error says in one sentence what to install or run.
func BinariesFor(dataDir string) (string, error) {
	return findBinaries(exec.LookPath, debianLibRoot, dataDir)
}

// installed is one folder of server programs and the major version they run.
type installed struct {
	dir   string
	major []int
}

func (i installed) majorString() string { return versionString(i.major) }

func findBinaries(lookPath func(string) (string, error), libRoot, dataDir string) (string, error) {
	all := installedBinaries(lookPath, libRoot)
	if dataDir != "" {
		if b, err := os.ReadFile(filepath.Join(dataDir, "PG_VERSION")); err == nil {
			want, ok := parseVersion(strings.TrimSpace(string(b)))
			if !ok {
				return "", fmt.Errorf("the PostgreSQL cluster in %s has a PG_VERSION file that names no version (%q): it is not a cluster this program can run", dataDir, strings.TrimSpace(string(b)))
			}
			return pickMajor(all, want, dataDir)
		}
	}
	if len(all) == 0 {
		return "", ErrNoBinaries
	}
	return all[0].dir, nil
}

// pickMajor returns the folder of the given major version, or the sentence that says what to do.
func pickMajor(all []installed, want []int, dataDir string) (string, error) {
	for _, i := range all {
		if compareVersions(i.major, want) == 0 {
			return i.dir, nil
		}
	}
	v := versionString(want)
	install := fmt.Sprintf("install them with your system's PostgreSQL %s server package (Debian/Ubuntu: apt-get install postgresql-%s)", v, v)
	if len(all) > 0 && compareVersions(all[0].major, want) > 0 {
		return "", fmt.Errorf("the PostgreSQL cluster in %s was made by PostgreSQL %s, whose server programs are not installed (PostgreSQL %s is): %s, or upgrade the cluster to PostgreSQL %s with pg_upgrade, which needs both versions' programs", dataDir, v, all[0].majorString(), install, all[0].majorString())
	}
	return "", fmt.Errorf("the PostgreSQL cluster in %s was made by PostgreSQL %s, whose server programs are not installed: %s", dataDir, v, install)
}

// installedBinaries lists the folders of server programs, newest major first: those under libRoot,
// and the one on PATH when it is another (its major read from its path, else from postgres
// --version).
func installedBinaries(lookPath func(string) (string, error), libRoot string) []installed {
	var all []installed
	if entries, err := os.ReadDir(libRoot); err == nil {
		for _, e := range entries {
			v, ok := parseVersion(e.Name())
			if !ok {
				continue
			}
			if dir := filepath.Join(libRoot, e.Name(), "bin"); hasServerPrograms(dir) {
				all = append(all, installed{dir, majorOf(v)})
			}
		}
	}
	if dir := pathBinaries(lookPath); dir != "" && !slices.ContainsFunc(all, func(i installed) bool { return sameDir(i.dir, dir) }) {
		if v, ok := programVersion(dir); ok {
			all = append(all, installed{dir, majorOf(v)})
		}
	}
	// Newest first; for equal majors the one under libRoot (listed first) wins.
	slices.SortStableFunc(all, func(a, b installed) int { return compareVersions(b.major, a.major) })
	return all
}

// pathBinaries is the folder of initdb on PATH (or of the file its symlink names) when it holds
// all the server programs.
func pathBinaries(lookPath func(string) (string, error)) string {
	p, err := lookPath("initdb")
	if err != nil {
		return ""
	}
	if p, err = filepath.Abs(p); err != nil {
		return ""
	}
	if dir := filepath.Dir(p); hasServerPrograms(dir) {
		return dir
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		if dir := filepath.Dir(real); hasServerPrograms(dir) {
			return dir
		}
	}
	return ""
}

func sameDir(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

var versionOutput = regexp.MustCompile(`\(PostgreSQL\) (\d+(?:\.\d+)*)`)

// programVersion runs dir/postgres --version ("postgres (PostgreSQL) 16.2").
func programVersion(dir string) ([]int, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, filepath.Join(dir, "postgres"), "--version").Output()
	if err != nil {
		return nil, false
	}
	m := versionOutput.FindSubmatch(out)
	if m == nil {
		return nil, false
	}
	return parseVersion(string(m[1]))
}

// majorOf cuts a version to its major: 16.2 is 16, 9.6.24 is 9.6.
func majorOf(v []int) []int {
	n := 1
	if len(v) > 0 && v[0] < 10 {
		n = 2
	}
	return v[:min(n, len(v))]
}

func versionString(v []int) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ".")
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
