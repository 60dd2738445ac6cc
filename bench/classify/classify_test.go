// Package classify_test measures the classifier side by side with the parser
// it is built on, in the same run and on the same inputs (issue 17 point 4):
// `mvdan.cc/sh`'s parse alone is the floor of anything that reads bash, and
// the ratio says what the walk, the effects table and the path resolution
// add to it.
//
//	go test ./bench/classify -run '^$' -bench . -cpu 1
//
// Each command reports parse-ns/op, classify-ns/op and ×parse; the
// "typical" case reports the medians over all of them. The classifier's
// own targets (typical median under 5 µs, no input over 5 ms) are checked by
// `go test ./gate -bench Classify`; this is the ratio only.
package classify_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ml-ai/command-safety/classifier"
	"github.com/ml-ai/command-safety/internal/benchmix"
)

// parse is the floor: the parser the classifier uses, configured the same.
func parse(p *syntax.Parser, src string) {
	if _, err := p.Parse(strings.NewReader(src), ""); err != nil {
		panic(err)
	}
}

// pair times parse and classify of cmd alternately, n times each, and
// returns the mean of each.
func pair(p *syntax.Parser, cmd string, opts classifier.Options, n int) (parseNs, classifyNs float64) {
	var tp, tc time.Duration
	for range n {
		t0 := time.Now()
		parse(p, cmd)
		t1 := time.Now()
		classifier.Classify(cmd, opts)
		tc += time.Since(t1)
		tp += t1.Sub(t0)
	}
	return float64(tp.Nanoseconds()) / float64(n), float64(tc.Nanoseconds()) / float64(n)
}

func BenchmarkClassifyVsParse(b *testing.B) {
	opts := benchmix.Env(b)
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	for _, cmd := range benchmix.Typical {
		b.Run(cmd, func(b *testing.B) {
			var sp, sc float64
			n := 0
			for b.Loop() {
				pn, cn := pair(p, cmd, opts, 1)
				sp, sc, n = sp+pn, sc+cn, n+1
			}
			b.ReportMetric(sp/float64(n), "parse-ns/op")
			b.ReportMetric(sc/float64(n), "classify-ns/op")
			b.ReportMetric(sc/sp, "×parse")
		})
	}
	b.Run("typical", func(b *testing.B) {
		var ps, cs, rs []float64
		for b.Loop() {
			ps, cs, rs = ps[:0], cs[:0], rs[:0]
			for _, cmd := range benchmix.Typical {
				pn, cn := pair(p, cmd, opts, 20)
				ps, cs, rs = append(ps, pn), append(cs, cn), append(rs, cn/pn)
			}
		}
		med := func(x []float64) float64 { slices.Sort(x); return (x[len(x)/2] + x[(len(x)-1)/2]) / 2 }
		b.ReportMetric(med(ps), "median-parse-ns")
		b.ReportMetric(med(cs), "median-classify-ns")
		b.ReportMetric(med(rs), "median-×parse")
	})
}
