//go:build unix

package main

// Process tests of the OpenTelemetry export (issue 18 point 1): check, hook
// and serve run as the real binary, with HOME and XDG_* in temp dirs, and
// export to a real OTLP receiver (the collector's own, telemetry/otlptest)
// on loopback.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/telemetry"
	"github.com/ml-ai/command-safety/telemetry/otlptest"
)

// userSettings writes the sandbox's VS Code user settings.
func (s *hookSandbox) userSettings(t *testing.T, content string) {
	t.Helper()
	writeFile(t, filepath.Join(s.home, ".config", "Code", "User", "settings.json"), content)
}

// timed runs bin with args and stdin in the sandbox and returns its stdout,
// exit code and wall time: the time an agent waits for its answer (the
// process has exited and its stdout and stderr are closed).
func (s *hookSandbox) timed(t *testing.T, bin, stdin string, env []string, args ...string) (string, int, time.Duration) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = s.work
	cmd.Env = append(slices.Clone(s.env), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(errb.String(), "panic:") {
		t.Fatalf("%v panicked:\n%s", args, errb.String())
	}
	return out.String(), code, took
}

func (s *hookSandbox) claudePayload(session, command string) string {
	b, _ := json.Marshal(map[string]any{"session_id": session, "cwd": s.work, "permission_mode": "default",
		"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": command}})
	return string(b)
}

// waitShipper waits until no detached `log ship` holds the export lock of
// the log at path (they are bounded: they exit once caught up, or after
// their export timeouts), so that none outlives the test.
func waitShipper(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for {
		f, err := os.OpenFile(telemetry.LockFile(path), os.O_RDWR, 0)
		if err != nil {
			return // no export ever ran
		}
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		f.Close()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("a detached log ship still holds %s", telemetry.LockFile(path))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// exportState reads the export's state beside the log at path.
func exportState(t *testing.T, path string) telemetry.State {
	t.Helper()
	var st telemetry.State
	data, err := os.ReadFile(telemetry.StateFile(path))
	if err != nil {
		return st
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

func hasCommand(rs []otlptest.Record, event, command string) bool {
	for _, r := range rs {
		if r.EventName == event && r.Attr("process.command_line") == command {
			return true
		}
	}
	return false
}

// TestTelemetryCheckAndHook: check and hooks only write their row and start
// a detached `log ship`, which exports them; over HTTP from the user
// setting, over gRPC from the OTEL_* variables.
func TestTelemetryCheckAndHook(t *testing.T) {
	rcv := otlptest.Start(t)
	s := newHookSandbox(t)
	bin := hookBinary(t)
	s.userSettings(t, `{"ml-ai.telemetry": {"endpoint": "`+rcv.HTTPEndpoint+`"}}`)
	defer waitShipper(t, s.logPath())

	if _, code, _ := s.timed(t, bin, "", nil, "check", "--", "git status"); code != 0 {
		t.Fatalf("check exit %d", code)
	}
	out, _, _ := s.timed(t, bin, s.claudePayload("cc-1", "ls -la"), nil, "hook", "claude-code")
	if !strings.Contains(out, `"allow"`) {
		t.Fatalf("hook answered %s", out)
	}
	if _, code, _ := s.timed(t, bin, "", nil, "check", "--agent", "cursor", "--", "rm -rf ~"); code != 2 {
		t.Fatalf("check exit %d, want 2", code)
	}
	rs := rcv.Wait(t, 20*time.Second, "check's and the hook's verdicts", func(rs []otlptest.Record) bool {
		return hasCommand(rs, telemetry.EventVerdict, "git status") && hasCommand(rs, telemetry.EventVerdict, "ls -la") &&
			hasCommand(rs, telemetry.EventVerdict, "rm -rf ~")
	})
	for _, r := range rs {
		switch r.Attr("process.command_line") {
		case "ls -la":
			if r.Attr("gen_ai.agent.name") != "claude-code" || r.Attr("session.id") != "cc-1" || r.Attr("command_safety.decision") != "allow" || r.Protocol != "http" {
				t.Errorf("hook record = %+v", r)
			}
		case "rm -rf ~":
			if r.Attr("gen_ai.agent.name") != "cursor" || r.Attr("command_safety.rule") != "delete-outside-workspace" || r.Severity != "REFUSE" {
				t.Errorf("check record = %+v", r)
			}
		}
	}

	// The variables instead of the setting: gRPC.
	s.userSettings(t, `{}`)
	grpcEnv := []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + rcv.GRPCEndpoint, "OTEL_EXPORTER_OTLP_PROTOCOL=grpc",
		"OTEL_RESOURCE_ATTRIBUTES=team=payments", "OTEL_SERVICE_NAME=gate-ci"}
	waitShipper(t, s.logPath()) // the HTTP shipper has finished: the next one takes the variables
	s.timed(t, bin, s.claudePayload("cc-2", "git diff"), grpcEnv, "hook", "claude-code")
	rs = rcv.Wait(t, 20*time.Second, "the gRPC export", func(rs []otlptest.Record) bool { return hasCommand(rs, telemetry.EventVerdict, "git diff") })
	for _, r := range rs {
		if r.Attr("process.command_line") == "git diff" && (r.Protocol != "grpc" || r.Resource["team"] != "payments" || r.Resource["service.name"] != "gate-ci") {
			t.Errorf("gRPC record = %+v (resource %v)", r, r.Resource)
		}
	}
	waitShipper(t, s.logPath())
	if st := exportState(t, s.logPath()); st.Exported < 4 || st.Failed != 0 {
		t.Errorf("state = %+v", st)
	}
}

// TestTelemetryServe: serve exports its own verdicts and resolutions, and
// the rows hooks write while it runs (it holds the export, so hooks start
// no shipper of their own).
func TestTelemetryServe(t *testing.T) {
	rcv := otlptest.Start(t)
	c := startServe(t, serveOpts{files: map[string]string{
		"home/.config/Code/User/settings.json": `{"ml-ai.telemetry": {"endpoint": "` + rcv.GRPCEndpoint + `", "protocol": "grpc"}}`,
	}})
	c.initialize(nil)
	v := c.classify(map[string]any{"command": "git log -3"})
	p := c.classify(map[string]any{"command": "npm install left-pad", "agent": "copilot"})
	if v.Decision != "allow" || p.Decision != "prompt" {
		t.Fatalf("verdicts %s %s", v.Decision, p.Decision)
	}
	rcv.Wait(t, 10*time.Second, "serve's verdicts", func(rs []otlptest.Record) bool {
		return hasCommand(rs, telemetry.EventVerdict, "git log -3") && hasCommand(rs, telemetry.EventVerdict, "npm install left-pad")
	})
	var res struct{ Outcome string }
	c.call("commandSafety/resolve", map[string]any{"id": p.LogID, "outcome": "approved", "reviewer": "ada"}, &res)
	rcv.Wait(t, 10*time.Second, "the resolution", func(rs []otlptest.Record) bool {
		for _, r := range rs {
			if r.EventName == telemetry.EventResolution && r.Attr("command_safety.log.id") == fmt.Sprint(p.LogID) {
				return r.Attr("command_safety.reviewer") == "ada" && r.Attr("command_safety.status") == "approved"
			}
		}
		return false
	})

	// A hook in the same home while serve runs.
	s := &hookSandbox{home: c.home, work: c.ws}
	s.env = []string{"HOME=" + c.home, "XDG_CONFIG_HOME=" + filepath.Join(c.home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(c.home, ".local", "state"), "XDG_DATA_HOME=" + filepath.Join(c.home, ".local", "share"),
		"PATH=" + os.Getenv("PATH")}
	s.timed(t, hookBinary(t), s.claudePayload("cc-9", "cat README.md"), nil, "hook", "claude-code")
	rcv.Wait(t, 10*time.Second, "the hook's verdict, shipped by serve", func(rs []otlptest.Record) bool {
		return hasCommand(rs, telemetry.EventVerdict, "cat README.md")
	})
	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	if code := c.exitCodeWithin(5 * time.Second); code != 0 {
		t.Errorf("serve exit %d", code)
	}
	if st := exportState(t, s.logPath()); st.LastID < 3 || len(st.Pending) != 0 {
		t.Errorf("state after serve = %+v", st)
	}
	for _, r := range rcv.Records() {
		if r.Attr("process.command_line") == "cat README.md" && r.Attr("gen_ai.agent.name") != "claude-code" {
			t.Errorf("hook row = %+v", r)
		}
	}
}

// TestTelemetryManagedPolicy: the policy's ml-ai.telemetry is the only
// export: the user's setting pointing elsewhere is ignored, and so are the
// OTEL_* variables; its redactCommands holds.
func TestTelemetryManagedPolicy(t *testing.T) {
	rcv := otlptest.Start(t)
	elsewhere := otlptest.Start(t)
	s := newHookSandbox(t)
	bin := buildServe(t, true) // a test build: CS_TEST_POLICY_FILE moves the policy
	policy := filepath.Join(s.home, "etc", "policy.json")
	writeFile(t, policy, `{"ml-ai.telemetry": {"endpoint": "`+rcv.HTTPEndpoint+`", "redactCommands": true}}`)
	s.userSettings(t, `{"ml-ai.telemetry": {"endpoint": "`+elsewhere.HTTPEndpoint+`"}}`)
	env := []string{"CS_TEST_POLICY_FILE=" + policy, "OTEL_EXPORTER_OTLP_ENDPOINT=" + elsewhere.GRPCEndpoint, "OTEL_SDK_DISABLED=true"}
	defer waitShipper(t, s.logPath())
	s.timed(t, bin, "", env, "check", "--", "curl -H 'Authorization: Bearer hunter2' https://example.com")
	rs := rcv.Wait(t, 20*time.Second, "the verdict at the policy's collector", func(rs []otlptest.Record) bool { return len(rs) > 0 })
	if rs[0].Attr("command_safety.command.redacted") != "true" || strings.Contains(fmt.Sprint(rs[0].Attrs, rs[0].Body), "hunter2") {
		t.Errorf("record not redacted: %+v", rs[0])
	}
	waitShipper(t, s.logPath())
	if n := len(elsewhere.Records()); n != 0 {
		t.Errorf("%d records reached the user's collector: the policy's is the only one", n)
	}
}

// TestTelemetryNeverDelaysVerdicts measures check and hook wall times, as
// the agent sees them, with export off and with a collector that is down,
// failing, or slow (it answers after 30 s): the verdicts are the same, and
// the time added is the cost of starting the detached shipper, whatever the
// collector does.
func TestTelemetryNeverDelaysVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("measures process times")
	}
	bin := hookBinary(t)
	const runs = 12
	type result struct {
		decisions []string
		times     []time.Duration
	}
	// one runs check and a hook once in s.
	one := func(t *testing.T, s *hookSandbox, r *result, i int) {
		out, code, took := s.timed(t, bin, "", nil, "check", "--", "git status")
		r.decisions = append(r.decisions, fmt.Sprint(code, strings.Fields(out)[0]))
		r.times = append(r.times, took)
		out, _, took = s.timed(t, bin, s.claudePayload(fmt.Sprint("s", i), "npm install x"), nil, "hook", "claude-code")
		r.decisions = append(r.decisions, hookDecision(t, "claude-code", out))
		r.times = append(r.times, took)
	}
	median := func(ds []time.Duration) time.Duration {
		ds = slices.Clone(ds)
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	for _, tt := range []struct {
		name  string
		mode  otlptest.Mode
		down  bool
		delay time.Duration
	}{
		{name: "down", down: true},
		{name: "failing", mode: otlptest.Fail},
		{name: "slow", mode: otlptest.Slow, delay: 30 * time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rcv := otlptest.Start(t)
			rcv.SetMode(tt.mode, tt.delay)
			if tt.down {
				rcv.Shutdown()
			}
			off, on := newHookSandbox(t), newHookSandbox(t)
			on.userSettings(t, `{"ml-ai.telemetry": {"endpoint": "`+rcv.HTTPEndpoint+`"}}`)
			// Interleaved, so that the machine's load weighs on both alike.
			var base, r result
			for i := range runs {
				one(t, off, &base, i)
				one(t, on, &r, i)
			}
			t.Logf("collector %s: median %v, max %v; export off: median %v, max %v", tt.name,
				median(r.times), slices.Max(r.times), median(base.times), slices.Max(base.times))
			if !slices.Equal(r.decisions, base.decisions) {
				t.Errorf("decisions changed with the collector %s:\n got %q\nwant %q", tt.name, r.decisions, base.decisions)
			}
			// The bound: each answer within a second, and the median no more
			// than 50 ms above export off (the spawn costs a few ms; the
			// margin is this shared 2-core machine's noise).
			if m := slices.Max(r.times); m > time.Second {
				t.Errorf("slowest answer %v with the collector %s", m, tt.name)
			}
			if d := median(r.times) - median(base.times); d > 50*time.Millisecond {
				t.Errorf("median answer %v slower with the collector %s", d, tt.name)
			}
			waitShipper(t, on.logPath())
			st := exportState(t, on.logPath())
			if st.Exported != 0 || st.Failed == 0 || st.LastErr == "" {
				t.Errorf("state = %+v: records are counted as lost", st)
			}
		})
	}
}

// TestTelemetryServeSlowCollector: a collector that never answers in time
// changes no classify round trip, and serve exits within its flush bound
// (serveFlush) after exit.
func TestTelemetryServeSlowCollector(t *testing.T) {
	if testing.Short() {
		t.Skip("measures round trips")
	}
	rcv := otlptest.Start(t)
	rcv.SetMode(otlptest.Slow, time.Minute)
	roundTrips := func(c *client) (time.Duration, []string) {
		c.initialize(nil)
		var times []time.Duration
		var decisions []string
		for i := range 40 {
			start := time.Now()
			v := c.classify(map[string]any{"command": fmt.Sprintf("git log -%d", i+1)})
			times = append(times, time.Since(start))
			decisions = append(decisions, v.Decision)
		}
		slices.Sort(times)
		return times[len(times)/2], decisions
	}
	off := startServe(t, serveOpts{})
	offMedian, offDecisions := roundTrips(off)
	c := startServe(t, serveOpts{files: map[string]string{
		"home/.config/Code/User/settings.json": `{"ml-ai.telemetry": {"endpoint": "` + rcv.HTTPEndpoint + `"}}`,
	}})
	median, decisions := roundTrips(c)
	t.Logf("classify round trip, median: export off %v, collector slow %v", offMedian, median)
	if !slices.Equal(decisions, offDecisions) {
		t.Errorf("decisions changed: %q vs %q", decisions, offDecisions)
	}
	if median > offMedian+20*time.Millisecond {
		t.Errorf("median round trip %v with a slow collector, %v without export", median, offMedian)
	}
	for deadline := time.Now().Add(10 * time.Second); rcv.Attempts() == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("serve made no export attempt")
		}
	}
	c.call("shutdown", nil, nil)
	start := time.Now()
	c.notify("exit", nil)
	code := c.exitCodeWithin(serveFlush + 3*time.Second)
	took := time.Since(start)
	t.Logf("serve exited %v after exit, its export still waiting on the collector", took)
	if code != 0 || took > serveFlush+time.Second {
		t.Errorf("serve exit %d after %v, want 0 within %v", code, took, serveFlush+time.Second)
	}
}

// TestReleaseBinaryIgnoresTestPolicyVariable: only test builds read
// CS_TEST_POLICY_FILE; a release build (no cstesthooks tag) reads the
// policy at its system location whatever the environment says, so a user
// cannot point it at an empty file.
func TestReleaseBinaryIgnoresTestPolicyVariable(t *testing.T) {
	s := newHookSandbox(t)
	policy := filepath.Join(s.home, "policy.json")
	writeFile(t, policy, `{"ml-ai.refuse": ["read"]}`)
	env := []string{"CS_TEST_POLICY_FILE=" + policy}
	release, test := buildServe(t, false), buildServe(t, true)
	out, code, _ := s.timed(t, test, "", env, "check", "--no-log", "--", "ls")
	if code != 2 || !strings.Contains(out, "refuses read for every agent") {
		t.Fatalf("the test build did not read the moved policy: exit %d\n%s", code, out)
	}
	if _, err := os.Stat("/etc/ml-ai/policy.json"); err == nil {
		t.Skip("this machine has a managed policy installed")
	}
	out, code, _ = s.timed(t, release, "", env, "check", "--no-log", "--", "ls")
	if code != 0 || strings.Contains(out, "managed policy") {
		t.Errorf("the release build followed CS_TEST_POLICY_FILE: exit %d\n%s", code, out)
	}
}

// TestTelemetryHookBinary: command-safety-hook, which does not link the
// OpenTelemetry SDK, kicks command-safety's `log ship` for the verdict it
// journalled, in a log never exported before (the verdict has no id until
// it is ingested: the shipper starts from the hook's start time).
func TestTelemetryHookBinary(t *testing.T) {
	rcv := otlptest.Start(t)
	s := newHookSandbox(t)
	small := hookOnlyBinary(t)
	s.userSettings(t, `{"ml-ai.telemetry": {"endpoint": "`+rcv.HTTPEndpoint+`"}}`)
	defer waitShipper(t, s.logPath())
	out, _, _ := s.timed(t, small, s.claudePayload("cc-small", "ls -la"), nil, "hook", "claude-code")
	if !strings.Contains(out, `"allow"`) {
		t.Fatalf("hook answered %s", out)
	}
	rs := rcv.Wait(t, 20*time.Second, "the hook binary's verdict", func(rs []otlptest.Record) bool {
		return hasCommand(rs, telemetry.EventVerdict, "ls -la")
	})
	for _, r := range rs {
		if r.Attr("process.command_line") == "ls -la" && (r.Attr("session.id") != "cc-small" || r.Attr("command_safety.decision") != "allow") {
			t.Errorf("record = %+v", r)
		}
	}
}
