package models

import "strconv"

// CSVHeader is the header row of a CSV export (DESIGN.md, Export): the
// event's JSON field names in the JSON order.
func CSVHeader() []string {
	out := make([]string, len(EventFields))
	for i := range EventFields {
		out[i] = EventFields[i].Name
	}
	return out
}

// CSVRecord fills rec (reused between rows; nil makes one) with e's values
// as a CSV export writes them: text as it is, times as in JSON, true and
// false, numbers, and an empty cell for null.
func CSVRecord(e *Event, rec []string) []string {
	if len(rec) != len(EventFields) {
		rec = make([]string, len(EventFields))
	}
	for i := range EventFields {
		f := &EventFields[i]
		switch f.Type {
		case TypeText, TypeEnum:
			rec[i], _ = f.getText(e)
		case TypeTime:
			rec[i] = ""
			if t := f.getTime(e); t != nil {
				rec[i] = FormatTime(*t)
			}
		case TypeBool:
			rec[i] = strconv.FormatBool(*f.getBool(e))
		default:
			rec[i] = strconv.FormatInt(f.getInt(e), 10)
		}
	}
	return rec
}

// AppendExportJSON appends one line of an NDJSON export: e's JSON with a
// "history" array of its history rows, oldest first, and a newline.
func AppendExportJSON(b []byte, e *Event, history []History) ([]byte, error) {
	b = e.AppendJSON(b)
	b = append(b[:len(b)-1], `,"history":[`...)
	for i, h := range history {
		if i > 0 {
			b = append(b, ',')
		}
		j, err := h.MarshalJSON()
		if err != nil {
			return b, err
		}
		b = append(b, j...)
	}
	return append(b, "]}\n"...), nil
}
