package audit

import (
	"context"
	"fmt"
	"strings"
)

// Stats are counts over the rows a [Filter] selects (its Limit is ignored).
type Stats struct {
	Total      int            `json:"total"`
	ByDecision map[string]int `json:"byDecision"` // allow, prompt, refuse
	ByEffect   map[string]int `json:"byEffect"`   // verdicts with at least one part of the effect
	ByAgent    map[string]int `json:"byAgent"`
	ByRule     map[string]int `json:"byRule"` // budget effect or SPEC §5 rule id
	ByStatus   map[string]int `json:"byStatus"`
	// ApprovalRate is approved / (approved + rejected) over resolved prompts;
	// 0 when none is resolved.
	ApprovalRate float64 `json:"approvalRate"`
}

// Stats counts the rows f selects by decision, effect, agent, rule and
// status, and the approval rate of resolved prompts.
func (l *Log) Stats(ctx context.Context, f Filter) (Stats, error) {
	l.catchUp(ctx) // the hooks' verdicts first
	from, where, args, _ := f.from()
	s := Stats{ByDecision: map[string]int{}, ByEffect: map[string]int{}, ByAgent: map[string]int{},
		ByRule: map[string]int{}, ByStatus: map[string]int{}}
	// Unfiltered, each count reads its own narrow index (a million rows in
	// a fraction of a second): decision, agent and rule their own, the
	// status of prompts the partial index verdicts_prompts (every other row
	// is auto), effects the key of verdict_effects. Filtered, one pass over
	// the selected rows counts decision, agent, rule, status and effect
	// classes together (few distinct combinations).
	err := retry(ctx, func() error {
		for _, m := range []map[string]int{s.ByDecision, s.ByAgent, s.ByRule, s.ByStatus, s.ByEffect} {
			clear(m)
		}
		if where == "" {
			for _, c := range []struct {
				q string
				m map[string]int
			}{
				{"SELECT decision, count(*) FROM verdicts INDEXED BY verdicts_decision GROUP BY decision", s.ByDecision},
				{"SELECT agent, count(*) FROM verdicts INDEXED BY verdicts_agent GROUP BY agent", s.ByAgent},
				{"SELECT rule, count(*) FROM verdicts INDEXED BY verdicts_rule GROUP BY rule", s.ByRule},
				{"SELECT status, count(*) FROM verdicts AS v INDEXED BY verdicts_prompts WHERE " + promptRows + " GROUP BY status", s.ByStatus},
				{"SELECT effect, count(*) FROM verdict_effects GROUP BY effect", s.ByEffect},
			} {
				if err := l.scanCounts(ctx, c.q, nil, func(k []string, n int) { c.m[k[0]] += n }); err != nil {
					return err
				}
			}
			if auto := s.ByDecision["allow"] + s.ByDecision["refuse"]; auto > 0 {
				s.ByStatus[string(StatusAuto)] = auto // the CHECK: a row is auto exactly when it is no prompt
			}
			return nil
		}
		return l.scanCounts(ctx, "SELECT v.decision, v.agent, v.rule, v.status, v.classes, count(*)"+from+where+
			" GROUP BY v.decision, v.agent, v.rule, v.status, v.classes", args, func(k []string, n int) {
			s.ByDecision[k[0]] += n
			s.ByAgent[k[1]] += n
			s.ByRule[k[2]] += n
			s.ByStatus[k[3]] += n
			if k[4] != "" {
				for c := range strings.SplitSeq(k[4], ",") {
					s.ByEffect[c] += n
				}
			}
		})
	})
	if err != nil {
		return Stats{}, fmt.Errorf("decision log stats: %w", err)
	}
	for _, n := range s.ByDecision {
		s.Total += n
	}
	if ok, no := s.ByStatus[string(StatusApproved)], s.ByStatus[string(StatusRejected)]; ok+no > 0 {
		s.ApprovalRate = float64(ok) / float64(ok+no)
	}
	return s, nil
}

// scanCounts runs q, whose rows are some text keys then a count, and calls
// add for each row.
func (l *Log) scanCounts(ctx context.Context, q string, args []any, add func(keys []string, n int)) error {
	rows, err := l.db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	keys := make([]string, len(cols)-1)
	dest := make([]any, len(cols))
	for i := range keys {
		dest[i] = &keys[i]
	}
	var n int
	dest[len(keys)] = &n
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		add(keys, n)
	}
	return rows.Err()
}
