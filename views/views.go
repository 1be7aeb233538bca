// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Package views embeds the HTML templates: pages/ and partials/. Every file
// parses into one set, so a template name is its path without ".html".
// Pages include partials/head and partials/foot themselves: no layout, so
// no layout render races a fragment render (gofiber/template/html v2.1.3).
package views

import "embed"

// FS holds the templates of this folder.
//
//go:embed pages partials
var FS embed.FS
