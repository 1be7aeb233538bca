// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// serverSteps renders the root commands of the README's "Behind nginx,
// with systemd" steps (the "# " lines of its console blocks, with their
// continuation lines) into one script, in the order written.
func serverSteps(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n### Behind nginx, with systemd\n")
	if !ok {
		t.Fatal(`the README has no section "Behind nginx, with systemd"`)
	}
	section, _, _ = strings.Cut(section, "\n### ")
	var script []string
	for _, block := range regexp.MustCompile("(?s)```console\n(.*?)```").FindAllStringSubmatch(section, -1) {
		more := false
		for _, line := range strings.Split(block[1], "\n") {
			line = strings.TrimSpace(line)
			switch {
			case more:
				script = append(script, line)
			case strings.HasPrefix(line, "# "):
				script = append(script, strings.TrimPrefix(line, "# "))
			default:
				continue
			}
			more = strings.HasSuffix(line, `\`)
		}
	}
	if len(script) < 10 {
		t.Fatalf("the server steps hold %d commands:\n%s", len(script), strings.Join(script, "\n"))
	}
	return strings.Join(script, "\n") + "\n"
}

// What cannot run here stands in for itself: apt-get checks that the
// programs it would install are there, systemctl says what it would do
// (there is no systemd to talk to), and certbot writes a self-signed
// certificate where Let's Encrypt's would go, after checking that the
// webroot it is given is the one Debian's nginx serves.
const stepsPrelude = `set -euo pipefail
export PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin
apt-get() {
	for p in postgresql:pg_ctlcluster nginx:nginx certbot:; do
		c=${p#*:}
		if [ -n "$c" ] && ! command -v "$c" >/dev/null && [ ! -x "/usr/sbin/$c" ]; then echo "step needs ${p%%:*}" >&2; return 1; fi
	done
	echo "here: apt-get $*"
}
systemctl() { echo "here: systemctl $*"; }
certbot() {
	local domain= webroot=
	while [ $# -gt 0 ]; do
		case "$1" in -d) domain=$2; shift;; -w) webroot=$2; shift;; esac
		shift
	done
	[ -d "$webroot" ] || { echo "certbot: the webroot $webroot does not exist" >&2; return 1; }
	mkdir -p "/etc/letsencrypt/live/$domain"
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=$domain" \
		-keyout "/etc/letsencrypt/live/$domain/privkey.pem" -out "/etc/letsencrypt/live/$domain/fullchain.pem" 2>/dev/null
	echo "here: a self-signed certificate for $domain"
}
`

// TestReadmeServerStepsRun renders the README's server steps into a script
// and runs it as written, as root, in a mount namespace whose /etc, /var,
// /usr/local and /run are overlays (so the user, the folders, the binary,
// the unit, the settings and nginx.conf are really made, and the machine
// keeps none of them): the user exists, the settings are 0600 with a hash
// and a key, systemd-analyze verify passes on the installed unit, and
// nginx -t passes on the edge's configuration with the certificate in
// place. What needs the network or a running systemd (apt-get, systemctl,
// certbot) is checked, not run.
func TestReadmeServerStepsRun(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("SKIPPED LOUDLY: the README's server steps run as root")
	}
	for _, program := range []string{"unshare", "nginx", "systemd-analyze", "openssl", "useradd"} {
		if _, err := exec.LookPath(program); err != nil {
			if _, err := os.Stat("/usr/sbin/" + program); err != nil {
				t.Skipf("SKIPPED LOUDLY: the README's server steps need %s", program)
			}
		}
	}
	steps := serverSteps(t)
	for _, want := range []string{"useradd", "systemd-analyze verify", "certbot certonly", "nginx -t"} {
		if !strings.Contains(steps, want) {
			t.Errorf("the server steps lack %q", want)
		}
	}
	if strings.Index(steps, "certbot certonly") > strings.Index(steps, "nginx -t") {
		t.Errorf("the first certificate comes after nginx -t:\n%s", steps)
	}
	if strings.Contains(steps, "--standalone") {
		t.Errorf("certbot --standalone needs port 80, which Debian's nginx holds:\n%s", steps)
	}

	// A checkout: bin/events and edge/events.service, as after make build.
	tmp := t.TempDir()
	work := filepath.Join(tmp, "checkout")
	for _, dir := range []string{"bin", "edge"} {
		if err := os.MkdirAll(filepath.Join(work, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("cp", build(t), filepath.Join(work, "bin", "events")).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	if out, err := exec.Command("cp", "../../edge/events.service", filepath.Join(work, "edge")).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	checks := `
id events
stat -c '%a %U' /etc/events/env
grep -cF "EVENTS_PASSWORD_HASH='\$2a\$" /etc/events/env
grep -c "^EVENTS_SESSION_KEY='.\{40,\}'$" /etc/events/env
nginx -t -c /etc/nginx/nginx.conf 2>&1
`
	script := filepath.Join(tmp, "steps.sh")
	if err := os.WriteFile(script, []byte(stepsPrelude+"cd "+work+"\n"+steps+checks), 0o755); err != nil {
		t.Fatal(err)
	}
	var overlays []string
	for _, dir := range []string{"/etc", "/var", "/usr/local", "/run"} {
		up, wk := filepath.Join(tmp, "upper"+dir), filepath.Join(tmp, "work"+dir)
		for _, d := range []string{up, wk} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		overlays = append(overlays, "mount -t overlay overlay -o lowerdir="+dir+",upperdir="+up+",workdir="+wk+" "+dir)
	}
	cmd := exec.Command("unshare", "--mount", "--propagation", "private", "sh", "-c", strings.Join(overlays, " && ")+` && exec bash "$0"`, script)
	cmd.Stdin = strings.NewReader("the owner's password\n")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=/root"}
	out, err := cmd.CombinedOutput()
	said := string(out)
	if err != nil {
		t.Fatalf("the README's server steps, run as written: %v\n%s\nthe script:\n%s", err, said, steps)
	}
	for _, want := range []string{
		"uid=", "(events)",
		"\n600 root\n", "\n1\n1\n",
		"nginx: configuration file /etc/nginx/nginx.conf test is successful",
		"here: a self-signed certificate for events.example.org",
	} {
		if !strings.Contains(said, want) {
			t.Errorf("the steps' output lacks %q:\n%s", want, said)
		}
	}
	if strings.Contains(said, "events.service:") {
		t.Errorf("systemd-analyze verify complains:\n%s", said)
	}
	if _, err := os.Stat("/etc/events/env"); err == nil {
		t.Errorf("the steps left /etc/events/env on this machine")
	}
}
