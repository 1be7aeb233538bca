// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// version is what `events version` prints: the module's version and the
// VCS revision it was built from, as the Go toolchain recorded them.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "events (no build information)"
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = " with uncommitted changes"
			}
		}
	}
	out := "events " + v
	if rev != "" {
		out += fmt.Sprintf(", revision %s%s", rev, modified)
		if at != "" {
			out += " of " + at
		}
	} else {
		out += ", no VCS revision recorded"
	}
	return out + ", " + info.GoVersion
}

// command splits the arguments into the command and what follows it. The
// command is serve when there is none, or when the first argument is a
// flag other than a command's spelling (events --port 3000).
func command(args []string) (string, []string) {
	if len(args) == 0 {
		return "serve", nil
	}
	switch args[0] {
	case "-h", "--help", "-version", "--version":
		return args[0], args[1:]
	}
	if strings.HasPrefix(args[0], "-") {
		return "serve", args
	}
	return args[0], args[1:]
}

// settingFlags are flags people try, and the environment variable that
// does what they meant.
var settingFlags = map[string]string{
	"port": "PORT", "p": "PORT",
	"host": "HOST", "addr": "HOST", "listen": "HOST", "bind": "HOST",
	"database": "DATABASE_URL", "db": "DATABASE_URL", "dsn": "DATABASE_URL", "database-url": "DATABASE_URL",
	"data": "EVENTS_DATA_DIR", "data-dir": "EVENTS_DATA_DIR", "datadir": "EVENTS_DATA_DIR",
	"tz": "EVENTS_TIMEZONE", "timezone": "EVENTS_TIMEZONE", "zone": "EVENTS_TIMEZONE",
}

// argsProblem says what is wrong with the arguments after a command that
// takes none: a flag that is a setting names its variable, with the value
// when one was given (serve --port 3000: use PORT=3000).
func argsProblem(cmd string, args []string) string {
	if len(args) == 0 {
		return ""
	}
	name, value, hasValue := strings.Cut(strings.TrimLeft(args[0], "-"), "=")
	if !hasValue && len(args) > 1 && !strings.HasPrefix(args[1], "-") {
		value, hasValue = args[1], true
	}
	if env, ok := settingFlags[strings.ToLower(name)]; ok && strings.HasPrefix(args[0], "-") {
		if !hasValue {
			value = "…"
		}
		return fmt.Sprintf("events %s takes no flags: --%s is a setting of the environment; use %s=%s events %s", cmd, name, env, value, cmd)
	}
	return fmt.Sprintf("events %s takes no flags or arguments (got %q); its settings come from the environment (see the README, Configuration)", cmd, strings.Join(args, " "))
}
