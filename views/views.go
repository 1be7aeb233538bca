// Package views embeds the HTML templates: pages/ and partials/. Every file
// parses into one set, so a template name is its path without ".html".
package views

import "embed"

// FS holds the templates of this folder.
//
//go:embed partials
var FS embed.FS
