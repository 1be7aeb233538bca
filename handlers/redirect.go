// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"net/url"
	"strings"
	"unicode"
)

// homePath is where a login goes when it has nowhere better to go.
const homePath = "/events"

// returnTo is where a login sends the browser back: a local path of this
// site, else /events. next is accepted only as one leading "/" that is not
// followed by "/" or "\", with no control character, whitespace or "\"
// anywhere (before or after percent-decoding the path) and no scheme or
// host; the answer is rebuilt from the parsed path and query, never echoed.
// Browsers read "/<TAB>/evil.example" or "/\evil.example" as
// "//evil.example", another site.
func returnTo(next string) string {
	if len(next) > 2048 || !localPath(next) {
		return homePath
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" || !localPath(u.Path) {
		return homePath
	}
	if u.Path == "/login" || strings.HasPrefix(u.Path, "/login/") || strings.HasPrefix(strings.ToLower(u.Path), "/api/") {
		return homePath
	}
	out := url.URL{Path: u.Path, RawQuery: u.Query().Encode()}
	s := out.String()
	if !localPath(s) { // cannot happen: a last guard on what goes into Location
		return homePath
	}
	return s
}

// localPath reports whether s starts with exactly one "/" and holds no
// backslash, control character or whitespace.
func localPath(s string) bool {
	if len(s) == 0 || s[0] != '/' || (len(s) > 1 && (s[1] == '/' || s[1] == '\\')) {
		return false
	}
	for _, r := range s {
		if r == '\\' || r == unicode.ReplacementChar || unicode.IsControl(r) || unicode.IsSpace(r) ||
			unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return true
}

// currentPage is the path and query of a page's full address (the
// HX-Current-URL htmx sends), for returnTo.
func currentPage(address string) string {
	u, err := url.Parse(address)
	if err != nil {
		return homePath
	}
	return u.RequestURI()
}
