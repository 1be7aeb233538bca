// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"testing"
)

func TestAcceptsCoding(t *testing.T) {
	for _, tt := range []struct {
		header, coding string
		want           bool
	}{
		{"gzip, deflate, br, zstd", "br", true},
		{"gzip, deflate, br, zstd", "gzip", true},
		{"gzip, deflate", "br", false},
		{"", "gzip", false},
		{"identity", "gzip", false},
		{"GZIP", "gzip", true},
		{"gzip;q=0", "gzip", false},
		{"gzip; q=0.000", "gzip", false},
		{"gzip;q=0.001", "gzip", true},
		{"gzip;q=1.0", "gzip", true},
		{"br;q=0, gzip", "br", false},
		{"br;q=0, gzip", "gzip", true},
		{"*", "br", true},
		{"*;q=0, gzip", "br", false},
		{"gzip, *;q=0", "gzip", true},
		{"br;q=0, *", "br", false},
	} {
		if got := acceptsCoding(tt.header, tt.coding); got != tt.want {
			t.Errorf("acceptsCoding(%q, %q) = %v, want %v", tt.header, tt.coding, got, tt.want)
		}
	}
}

func TestMatchesNoneMatch(t *testing.T) {
	const hash = "0123456789ab"
	for _, tt := range []struct {
		header, tag string
		ok          bool
	}{
		{`"0123456789ab"`, `"0123456789ab"`, true},
		{`"0123456789ab.gzip"`, `"0123456789ab.gzip"`, true},
		{`W/"0123456789ab.br"`, `W/"0123456789ab.br"`, true},
		{`"ffffffffffff", "0123456789ab.br"`, `"0123456789ab.br"`, true},
		{`*`, `"0123456789ab"`, true},
		{`"ffffffffffff"`, "", false},
		{`"0123456789a"`, "", false},
		{``, "", false},
	} {
		tag, ok := matchesNoneMatch(tt.header, hash)
		if tag != tt.tag || ok != tt.ok {
			t.Errorf("matchesNoneMatch(%q) = %q, %v; want %q, %v", tt.header, tag, ok, tt.tag, tt.ok)
		}
	}
}

func TestHashedNames(t *testing.T) {
	a, err := embeddedAssets()
	if err != nil {
		t.Fatal(err)
	}
	for name, x := range a.byName {
		if want := hashedName(name, x.hash); x.hashed != want || len(x.hash) != hashLen {
			t.Errorf("%s: hashed %q, want %q", name, x.hashed, want)
		}
		if got, cache := a.lookup(x.hashed); got != x || cache != cacheImmutable {
			t.Errorf("lookup(%q) = %v, %q", x.hashed, got, cache)
		}
		if got, cache := a.lookup(name); got != x || cache != cacheShort {
			t.Errorf("lookup(%q) = %v, %q", name, got, cache)
		}
		if got, cache := a.lookup(hashedName(name, "000000000000")); got != x || cache != cacheStale {
			t.Errorf("lookup of another version's address of %s = %v, %q", name, got, cache)
		}
	}
	if u, err := a.url("htmx.min.js"); err != nil || u != "/static/htmx.min."+a.byName["htmx.min.js"].hash+".js" {
		t.Errorf(`url("htmx.min.js") = %q, %v`, u, err)
	}
	if _, err := a.url("missing.css"); err == nil {
		t.Errorf(`url("missing.css"): no error`)
	}
	for _, file := range []string{"missing.css", "events.00000000000.css", "events.zzzzzzzzzzzz.css", "events.css.map", ""} {
		if x, _ := a.lookup(file); x != nil {
			t.Errorf("lookup(%q) found %s", file, x.name)
		}
	}
}
