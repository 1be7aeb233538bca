// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"events/docs"
	"events/models"
)

// declaredTypes and declaredCodes are the tables of problems.go and
// models/problems.go, as the API writes them.
func declaredTypes() []string {
	var out []string
	for _, t := range problemTypes {
		out = append(out, t.URI())
	}
	return out
}

func declaredCodes() []string {
	var out []string
	for _, c := range models.Codes() {
		out = append(out, c.Code.String())
	}
	return out
}

// TestProblemTypesAndCodesAreDocumented: the document's enums of
// Problem.type and FieldError.code are the tables, in their order, and
// docs/api.md names every type and code. A type or a code added, renamed
// or dropped in one place only fails here.
func TestProblemTypesAndCodesAreDocumented(t *testing.T) {
	t.Parallel()
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Required   []string `json:"required"`
				Properties map[string]struct {
					Enum []string `json:"enum"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(docs.OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(declaredTypes())
	if got, _ := json.Marshal(doc.Components.Schemas["Problem"].Properties["type"].Enum); string(got) != string(want) {
		t.Errorf("docs/openapi.json: Problem.type.enum =\n%s\nwant (handlers/problems.go)\n%s", got, want)
	}
	want, _ = json.Marshal(declaredCodes())
	fe := doc.Components.Schemas["FieldError"]
	if got, _ := json.Marshal(fe.Properties["code"].Enum); string(got) != string(want) {
		t.Errorf("docs/openapi.json: FieldError.code.enum =\n%s\nwant (models/problems.go)\n%s", got, want)
	}
	if !slices.Contains(fe.Required, "code") {
		t.Errorf("docs/openapi.json: FieldError.required = %q, want code in it", fe.Required)
	}
	api, err := os.ReadFile("../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append(declaredTypes(), declaredCodes()...) {
		if !strings.Contains(string(api), "`"+name+"`") {
			t.Errorf("docs/api.md does not name `%s`", name)
		}
	}
	for _, ty := range problemTypes {
		if ty.About == "" || ty.Name == "" || len(ty.Statuses) == 0 {
			t.Errorf("%s: the type needs a name, a sentence and its statuses", ty.Slug)
		}
	}
	for _, c := range models.Codes() {
		if c.Means == "" {
			t.Errorf("%s: the code needs a sentence", c.Code)
		}
	}
}

// TestEveryFieldErrorHasACode reads the source of the packages that make
// field errors: a FieldError literal (in a FieldErrors too) and a
// BadRequestError literal with a Field must name its Code. The
// constructors (Invalid, BadRequest, FieldErrors.add) take one, so this
// and the document's enum, checked on every answer of the tests, leave no
// way for a field error without a code to reach an answer.
func TestEveryFieldErrorHasACode(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	var files int
	for _, dir := range []string{"../models", "../app", "."} {
		paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range paths {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files++
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.CompositeLit)
				if !ok {
					return true
				}
				switch typeName(lit.Type) {
				case "FieldError":
					checkHasCode(t, fset, lit, "FieldError")
				case "FieldErrors":
					for _, el := range lit.Elts {
						if e, ok := el.(*ast.CompositeLit); ok {
							checkHasCode(t, fset, e, "FieldError")
						}
					}
				case "BadRequestError":
					if hasKey(lit, "Field") {
						checkHasCode(t, fset, lit, "BadRequestError with a Field")
					}
				}
				return true
			})
		}
	}
	if files < 30 {
		t.Fatalf("read %d files: the source was not found", files)
	}
}

func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}

func hasKey(lit *ast.CompositeLit, key string) bool {
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok && typeName(kv.Key) == key {
			return true
		}
	}
	return false
}

func checkHasCode(t *testing.T, fset *token.FileSet, lit *ast.CompositeLit, what string) {
	t.Helper()
	if !hasKey(lit, "Code") {
		t.Errorf("%s: a %s without a Code", fset.Position(lit.Pos()), what)
	}
}

// TestProblemForGivesEachErrorItsType: the mapper's cases, without a
// server (the API tests make the refusals themselves).
func TestProblemForGivesEachErrorItsType(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err  error
		want *problemType
	}{
		{models.ErrNotFound, typeNotFound},
		{models.Invalid("title", models.CodeTooLong, "x"), typeValidation},
		{models.FieldErrors{{Field: "Idempotency-Key", Code: models.CodeKeyReused, Message: "x"}}, typeIdempotencyMismatch},
		{errBusy, typeOverloaded},
		{&loginWaitError{after: 3}, typeOverloaded},
		{exportsBusy{max: 2}, typeOverloaded},
		{os.ErrClosed, typeInternal},
	} {
		if got := problemFor(c.err); got.Type != c.want.URI() {
			t.Errorf("%v: type %s, want %s", c.err, got.Type, c.want.URI())
		}
	}
	for _, status := range []int{400, 401, 403, 404, 405, 408, 413, 415, 429, 431, 503} {
		ty := typeOfStatus(status)
		if !slices.Contains(ty.Statuses, status) {
			t.Errorf("a bare %d: type %s, which is not sent with it", status, ty.Slug)
		}
	}
}
