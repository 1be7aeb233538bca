// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"cmp"
	"math/big"
	"slices"
	"sort"
)

// The logged time of a day and each project's share of it (DESIGN.md,
// Summary), in whole seconds that add up exactly:
//
//   - the day's logged time is the length of the union of its logs' parts;
//   - inside one project its logs' parts are a union: two overlapping #work
//     logs count once;
//   - a stretch of time that logs of k different projects cover is shared
//     equally: each of them gets 1/k of it;
//   - each project's exact share (a fraction of a second at most off a whole
//     second per stretch) is cut down to the whole second, and the seconds
//     that leaves over go one each to the projects with the largest
//     fractions cut off; equal fractions go in tag order (byte order, logs
//     without a project last). The largest remainder method: no share is
//     off its exact value by a second or more, and the shares add up to the
//     day's logged time.
//
// The week's projects are the sums of its days', so they add up to the
// week's logged time too.

// LogPart is one log's part of one local day, its bounds in whole epoch
// seconds (cut down to the second), and its project tag (nil for none).
type LogPart struct {
	ID         int64 // the log's id (0 where no one asks which log it is)
	Tag        *string
	Labels     []string // the log's labels (the summary's per-label time)
	Start, End int64
}

// ShareDay answers the logged seconds of the parts of one day and each
// project's share of them, seconds descending then tag (none last); a
// project whose share is 0 is left out.
func ShareDay(parts []LogPart) (int64, []ProjectSeconds) {
	total, projects, _ := ShareParts(parts)
	return total, projects
}

// ShareParts is ShareDay, and each part's share of its project's seconds
// (in the order of parts): where n parts of a project are open together,
// each gets 1/n of the project's time there; each part's exact share is cut
// down to the whole second and the project's seconds left over go one each
// to its parts with the largest fractions cut off, equal ones in the order
// of parts. A project's parts therefore add up to its share.
func ShareParts(parts []LogPart) (int64, []ProjectSeconds, []int64) {
	each := make([]int64, len(parts))
	tags, keys, edges := partEdges(parts)
	if len(edges) == 0 {
		return 0, []ProjectSeconds{}, each
	}
	sw := sweepParts(parts, keys, len(tags), edges)
	shares := wholeShares(sw.bySharers, tagRanks(tags), sw.total)
	partSeconds(parts, keys, shares, sw.partShare, each)
	out := make([]ProjectSeconds, 0, len(tags))
	for _, s := range shares {
		if s.whole > 0 {
			out = append(out, ProjectSeconds{ProjectTag: tags[s.tag], Seconds: s.whole})
		}
	}
	sortProjects(out)
	return sw.total, out, each
}

// partEdge is where a part starts or ends.
type partEdge struct {
	at   int64
	tag  int // index into tags
	in   int // +1 a part starts, -1 it ends
	part int // index into parts
}

// partEdges are the parts' tags (in the order met, keys their indexes by
// tagKey) and their edges in time order; a part that spans no time has
// none.
func partEdges(parts []LogPart) (tags []*string, keys map[string]int, edges []partEdge) {
	keys = map[string]int{}
	edges = make([]partEdge, 0, 2*len(parts))
	for pi, p := range parts {
		if p.End <= p.Start {
			continue // a point spans no time
		}
		k := tagKey(p.Tag)
		i, ok := keys[k]
		if !ok {
			i = len(tags)
			keys[k] = i
			tags = append(tags, p.Tag)
		}
		edges = append(edges, partEdge{p.Start, i, 1, pi}, partEdge{p.End, i, -1, pi})
	}
	slices.SortFunc(edges, func(a, b partEdge) int { return cmp.Compare(a.at, b.at) })
	return tags, keys, edges
}

// tagRanks are the tags' places in tag order: the order that breaks ties.
func tagRanks(tags []*string) []int {
	order := make([]int, len(tags))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return compareTags(tags[a], tags[b]) })
	rank := make([]int, len(tags))
	for r, i := range order {
		rank[i] = r
	}
	return rank
}

// swept is what a sweep over the edges counts.
type swept struct {
	// bySharers[t][k]: the seconds tag t covered together with k-1 other
	// tags; its exact share is the sum over k of bySharers[t][k]/k
	bySharers []map[int64]int64
	partShare []*big.Rat // each part's exact share of its project's time
	total     int64      // the union's seconds
}

// sweepParts walks the edges in time order, sharing each stretch equally
// among the tags open in it, and a tag's part of it among its open parts.
func sweepParts(parts []LogPart, keys map[string]int, nTags int, edges []partEdge) swept {
	sw := swept{bySharers: make([]map[int64]int64, nTags), partShare: make([]*big.Rat, len(parts))}
	for i := range sw.bySharers {
		sw.bySharers[i] = map[int64]int64{}
	}
	for i := range sw.partShare {
		sw.partShare[i] = new(big.Rat)
	}
	open := make([]int, nTags) // parts of each tag open at the sweep's time
	partOpen := make([]bool, len(parts))
	var openTags, last int64 // tags with a part open; the sweep's time
	for _, e := range edges {
		if span := e.at - last; span > 0 && openTags > 0 {
			sw.total += span
			for t, n := range open {
				if n > 0 {
					sw.bySharers[t][openTags] += span
				}
			}
			for pi, o := range partOpen {
				if o {
					t := partTag(parts[pi], keys)
					sw.partShare[pi].Add(sw.partShare[pi], big.NewRat(span, openTags*int64(open[t])))
				}
			}
		}
		last = e.at
		partOpen[e.part] = e.in > 0
		if e.in > 0 && open[e.tag] == 0 {
			openTags++
		}
		open[e.tag] += e.in
		if e.in < 0 && open[e.tag] == 0 {
			openTags--
		}
	}
	return sw
}

// tagShare is one tag's whole seconds and the fraction cut off.
type tagShare struct {
	tag   int
	whole int64
	frac  *big.Rat
}

// wholeShares cuts each tag's exact share down to whole seconds and gives
// the seconds left over of total one each to the largest fractions, ties
// in tag order (rank).
func wholeShares(bySharers []map[int64]int64, rank []int, total int64) []tagShare {
	shares := make([]tagShare, len(bySharers))
	var given int64
	for t := range bySharers {
		s := tagShare{tag: t, frac: new(big.Rat)}
		for k, secs := range bySharers[t] {
			s.whole += secs / k
			s.frac.Add(s.frac, big.NewRat(secs%k, k))
		}
		// the fractions of several k may add up past a second
		q := new(big.Int).Quo(s.frac.Num(), s.frac.Denom())
		s.whole += q.Int64()
		s.frac.Sub(s.frac, new(big.Rat).SetInt(q))
		shares[t] = s
		given += s.whole
	}
	byFrac := slices.Clone(shares)
	sort.SliceStable(byFrac, func(i, j int) bool {
		if c := byFrac[i].frac.Cmp(byFrac[j].frac); c != 0 {
			return c > 0
		}
		return rank[byFrac[i].tag] < rank[byFrac[j].tag]
	})
	for i := int64(0); i < total-given && i < int64(len(byFrac)); i++ {
		shares[byFrac[i].tag].whole++
	}
	return shares
}

// partSeconds writes into each every part's whole seconds, its project's
// seconds left over going to the largest fractions.
func partSeconds(parts []LogPart, keys map[string]int, shares []tagShare, partShare []*big.Rat, each []int64) {
	byTag := make([][]int, len(shares))
	for pi, p := range parts {
		if p.End > p.Start {
			t := partTag(p, keys)
			byTag[t] = append(byTag[t], pi)
		}
	}
	for t, pis := range byTag {
		fracs := make([]*big.Rat, len(pis))
		left := shares[t].whole
		for j, pi := range pis {
			r := partShare[pi]
			w := new(big.Int).Quo(r.Num(), r.Denom())
			each[pi] = w.Int64()
			left -= each[pi]
			fracs[j] = new(big.Rat).Sub(r, new(big.Rat).SetInt(w))
		}
		order := make([]int, len(pis))
		for j := range order {
			order[j] = j
		}
		sort.SliceStable(order, func(a, b int) bool { return fracs[order[a]].Cmp(fracs[order[b]]) > 0 })
		for j := 0; left > 0 && len(order) > 0; j, left = (j+1)%len(order), left-1 {
			each[pis[order[j]]]++
		}
	}
}

// partTag is the index of p's tag among the tags ShareParts met.
func partTag(p LogPart, keys map[string]int) int { return keys[tagKey(p.Tag)] }

// tagKey tells project tags apart, none included.
func tagKey(tag *string) string {
	if tag == nil {
		return "\x00"
	}
	return "#" + *tag
}

// compareTags orders tags by their bytes, none last.
func compareTags(a, b *string) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	return cmp.Compare(*a, *b)
}

// sortProjects orders projects as the summary lists them: seconds
// descending, then tag (none last).
func sortProjects(ps []ProjectSeconds) {
	slices.SortFunc(ps, func(a, b ProjectSeconds) int {
		if c := cmp.Compare(b.Seconds, a.Seconds); c != 0 {
			return c
		}
		return compareTags(a.ProjectTag, b.ProjectTag)
	})
}
