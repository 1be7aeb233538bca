package app

import (
	"time"
)

// parsePGTime reads PostgreSQL's text form of a timestamptz as a session in
// UTC prints it ("2026-11-22 03:00:00.123456+00"), by position; any other
// form goes to time.Parse.
func parsePGTime(s string) (time.Time, error) {
	n := len(s)
	if n < 22 || s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' || s[16] != ':' || s[n-3:] != "+00" {
		return time.Parse("2006-01-02 15:04:05.999999999-07", s)
	}
	digits := func(from, to int) int {
		v := 0
		for i := from; i < to; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	y, mo, d, h, mi, sec := digits(0, 4), digits(5, 7), digits(8, 10), digits(11, 13), digits(14, 16), digits(17, 19)
	ns := 0
	if frac := s[19 : n-3]; frac != "" {
		if frac[0] != '.' || len(frac) < 2 || len(frac) > 10 {
			return time.Parse("2006-01-02 15:04:05.999999999-07", s)
		}
		ns = digits(20, n-3)
		for i := len(frac) - 1; i < 9; i++ {
			ns *= 10
		}
	}
	if y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || sec < 0 || ns < 0 {
		return time.Parse("2006-01-02 15:04:05.999999999-07", s)
	}
	return time.Date(y, time.Month(mo), d, h, mi, sec, ns, time.UTC), nil
}
