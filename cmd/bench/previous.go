// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// ratioCell reads the median of a "64% (58–71)" cell.
var ratioCell = regexp.MustCompile(`^(\d+)% \(`)

// readRatios reads the throughput and CPU ratios of each scenario from a
// table that report wrote, and the scenarios in its order; nil when there
// is none. Only rows with both ratio cells count, so the other tables of
// the file (the ten-million line names the same listings) are passed over.
func readRatios(table string) (when string, ratios map[string][2]int, order []string) {
	ratios = map[string][2]int{}
	for _, line := range strings.Split(table, "\n") {
		if _, rest, ok := strings.Cut(line, "; taken "); ok && when == "" {
			when, _, _ = strings.Cut(rest, ";")
		}
		cells := strings.Split(line, " | ")
		if len(cells) < 5 || !strings.HasPrefix(line, "| ") {
			continue
		}
		t, c := ratioCell.FindStringSubmatch(cells[3]), ratioCell.FindStringSubmatch(cells[4])
		if t == nil || c == nil {
			continue
		}
		a, _ := strconv.Atoi(t[1])
		b, _ := strconv.Atoi(c[1])
		name := strings.TrimPrefix(cells[0], "| ")
		if _, seen := ratios[name]; !seen {
			order = append(order, name)
		}
		ratios[name] = [2]int{a, b}
	}
	if len(ratios) == 0 {
		return "", nil, nil
	}
	return when, ratios, order
}

// againstPrevious compares this run's ratios with those of the table in
// the file path held before (the previous run with the same -out): how
// many points each moved, and the most any moved.
func againstPrevious(path, table string) string {
	old, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	when, before, _ := readRatios(string(old))
	_, now, order := readRatios(table)
	if before == nil || now == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## Against the previous run (%s)\n\nMedian ratios, this run minus the previous one, in points.\n\n", when)
	b.WriteString("| scenario | throughput ratio | CPU ratio |\n|---|--:|--:|\n")
	worstT, worstC, rows := 0, 0, 0
	for _, name := range order {
		n := now[name]
		p, ok := before[name]
		if !ok {
			continue
		}
		dt, dc := n[0]-p[0], n[1]-p[1]
		worstT, worstC = max(worstT, int(math.Abs(float64(dt)))), max(worstC, int(math.Abs(float64(dc))))
		fmt.Fprintf(&b, "| %s | %+d | %+d |\n", name, dt, dc)
		rows++
	}
	if rows == 0 {
		return ""
	}
	fmt.Fprintf(&b, "\nThe most any scenario moved: %d points (throughput), %d points (CPU).\n", worstT, worstC)
	return b.String()
}
