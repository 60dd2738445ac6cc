package gate

import (
	"github.com/ml-ai/command-safety/effects"
)

// The changes a verdict may undergo after [Decide] (issue 12 point 8). They
// live here, beside Decide, so that check, serve and every hook apply the
// same ones in the same way. None of them loosens a refusal, and only a
// human's release ([Released]) turns a prompt into an allow.

// RuleBadRequest is the rule of a verdict for a request that never reached
// the classifier (a malformed JSONL line of check).
const RuleBadRequest = "bad-request"

// Unrecorded returns v as it stands when the decision log could not take it
// (why says why): an allow becomes a prompt, since nothing runs unattended
// without a record; prompt and refuse are unchanged.
func Unrecorded(v Verdict, why string) Verdict {
	if v.Decision != effects.Allow {
		return v
	}
	v.Decision = effects.Prompt
	if v.Reason != "" {
		v.Reason += "; "
	}
	v.Reason += why + ", so nothing runs unattended"
	return v
}

// AtMostPrompt returns v for a call the classification cannot be the whole
// story of (why says why, rule names it): an allow becomes a prompt with
// rule, a prompt keeps its rule and gains the reason, a refusal is
// unchanged.
func AtMostPrompt(v Verdict, rule, why string) Verdict {
	switch v.Decision {
	case effects.Refuse:
		return v
	case effects.Allow:
		v.Decision, v.Rule = effects.Prompt, rule
	}
	v.Reason = why + "; " + v.Reason
	return v
}

// Released returns the held prompt v as its hold ended: approved runs
// (allow), anything else — rejected, timed out, stopped, failed — is
// refused; why becomes the reason, before v's own. A verdict that is not a
// prompt is returned unchanged: a release never touches an allow or a
// refusal.
func Released(v Verdict, approved bool, why string) Verdict {
	if v.Decision != effects.Prompt {
		return v
	}
	v.Decision = effects.Refuse
	if approved {
		v.Decision = effects.Allow
	}
	v.Reason = why + ": " + v.Reason
	return v
}

// Rejected is the verdict for a request that never reached the classifier
// (why says what was wrong with it): a refusal under rule with no parts.
func Rejected(base Verdict, rule, why string) Verdict {
	base.Decision, base.Rule, base.Reason = effects.Refuse, rule, why
	base.Effects, base.DecidedBy = []Effect{}, nil
	if base.Workspaces == nil {
		base.Workspaces = []string{}
	}
	return base
}
