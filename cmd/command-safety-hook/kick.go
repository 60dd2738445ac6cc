package main

import (
	"os"
	"os/exec"
	"strings"

	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/hookrun"
)

// kickExport starts a detached `command-safety log ship` when export may be
// configured, as command-safety's own hook does (package telemetry decides
// exactly; this binary does not link it): the settings name an endpoint, or
// the OTEL_EXPORTER_OTLP_* variables do. `log ship` ingests the journal,
// ships this run's verdict with the rest, and exits at once when export is
// off after all. Nothing starts while another process ships the log.
func kickExport(e *hookrun.Env) {
	snap := e.Snapshot()
	if !e.Changed || snap == nil || e.LogPath == "" || !exportMaybeOn(snap.Telemetry != nil && snap.Telemetry.Off,
		snap.Telemetry != nil && snap.Telemetry.Endpoint != "", snap.Telemetry != nil && snap.Telemetry.Managed) {
		return
	}
	if shipping(e.LogPath + gate.ExportSuffix + ".lock") {
		return
	}
	bin, err := full()
	if err != nil {
		return
	}
	args := append(append([]string{hookrun.FullName, "log", "ship", "--quiet", "--log", e.LogPath}, hookrun.KickFrom(e.Start)...), "--linger", "5s")
	cmd := &exec.Cmd{Path: bin, Args: args, SysProcAttr: detached()}
	if cmd.Start() == nil {
		_ = cmd.Process.Release()
	}
}

// exportMaybeOn is telemetry.Resolve's "on", read loosely: off when the
// settings turn export off (and no managed endpoint overrides), or nothing
// names an endpoint.
func exportMaybeOn(off, endpoint, managed bool) bool {
	if managed && endpoint {
		return true
	}
	if off || strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_SDK_DISABLED")), "true") {
		return false
	}
	return endpoint || os.Getenv("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != ""
}
