// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"testing"
)

// pageFiles are the Go files that draw the pages' words: their rows,
// notes, headings, labels and sentences.
var pageFiles = []string{"rowhtml.go", "rowview.go", "reviewhtml.go", "review.go", "daygroups.go", "today.go",
	"tabs.go", "listings.go", "historyview.go", "formview.go", "captureplace.go", "capture.go", "timers.go",
	"undoview.go", "pages.go", "search.go", "tagview.go", "upcoming.go", "contract.go", "language.go",
	"events.go", "render.go", "htmx.go", "names.go", "edittimes.go"}

var (
	htmlTag     = regexp.MustCompile(`</?[a-z][^>]*>?|[a-z][a-z-]*="[^"]*"?|^[^<>"]*"|[<>"]`)
	timeLayout  = regexp.MustCompile(`\b(2006|Jan)\b|^Mon `)
	headerName  = regexp.MustCompile(`^[A-Z][A-Za-z]*(-[A-Z][A-Za-z]*)+$`)
	englishText = regexp.MustCompile(`\b[A-Z][a-z]+\b|\b[a-z]{2,} [a-z]{2,}\b`)
)

// notShown are the calls whose string arguments never reach a page: the
// API's and the log's English, errors, header and parameter names.
var notShown = regexp.MustCompile(`^(.*\.T|.*\.Wrap|fmt\.Errorf|errors\.New|models\.BadRequest|.*\.Add|fiber\.NewError|.*log\.(Info|Warn|Error|Debug)|c\.(Set|Get|Locals|Query|Params|Cookies)|regexp\.MustCompile|q\.(Set|Get|Has)|values\.(Get|Has)|strings\..*|panic)$`)

// TestPageGoFilesCarryNoWords fails when a Go file that draws the pages
// holds English words outside the catalogue: a string literal that reads
// as a sentence or a capitalised word, outside the calls whose strings
// never reach a page. A word a page shows goes into the catalogue
// (internal/i18n) and the code refers to it by id.
func TestPageGoFilesCarryNoWords(t *testing.T) {
	fset := token.NewFileSet()
	for _, name := range pageFiles {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		skip := map[*ast.BasicLit]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ImportSpec:
				skip[n.Path] = true
			case *ast.Field:
				if n.Tag != nil {
					skip[n.Tag] = true
				}
			case *ast.CompositeLit:
				// a message's placeholders, names and values ([]any{"Tag", tag})
				if a, ok := n.Type.(*ast.ArrayType); ok && exprString(a.Elt) == "any" {
					for _, e := range n.Elts {
						if l, ok := e.(*ast.BasicLit); ok {
							skip[l] = true
						}
					}
				}
			case *ast.CallExpr:
				if notShown.MatchString(exprString(n.Fun)) {
					ast.Inspect(n, func(m ast.Node) bool {
						if l, ok := m.(*ast.BasicLit); ok {
							skip[l] = true
						}
						return true
					})
				}
			}
			return true
		})
		ast.Inspect(f, func(n ast.Node) bool {
			l, ok := n.(*ast.BasicLit)
			if !ok || l.Kind != token.STRING || skip[l] {
				return true
			}
			s, err := strconv.Unquote(l.Value)
			if err != nil {
				return true
			}
			if allowedWords[s] != "" || timeLayout.MatchString(s) || headerName.MatchString(s) {
				return true
			}
			text := htmlTag.ReplaceAllString(s, " ")
			if w := englishText.FindString(text); w != "" {
				t.Errorf("%s: %q reads as English (%q) outside the catalogue", fset.Position(l.Pos()), s, w)
			}
			return true
		})
	}
}

// allowedWords are the literals of the page files that read as English
// but are not a page's words, each with why.
var allowedWords = map[string]string{
	"closest li":      "an htmx target",
	"from and to":     "the API's refusal of a review address (English, as the API's detail)",
	"from, to and tz": "the same",
	" (a + in a query must be sent as %2B, e.g. with curl -G --data-urlencode)": "the same",
	": press Stop to end it now.": "the end of a field error's English message; Korean pages say what its code means (fieldErrorIn)",
	"Tag":                         "the placeholder tag_empty fills (tagview.go)",
	"Label":                       "the placeholder label_empty fills",
}

func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	}
	return ""
}
