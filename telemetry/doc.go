// Package telemetry exports the decision log (SPEC §7) as OpenTelemetry
// log records (issue 18): every verdict and every resolution of a prompt,
// sent over OTLP/HTTP or OTLP/gRPC through the official Go SDK
// (go.opentelemetry.io/otel/sdk/log and its otlploghttp and otlploggrpc
// exporters), to the collector a team already runs.
//
// The local log stays the record; export is a copy that never delays or
// changes a verdict. Nothing here is on the answer path: a [Shipper] reads
// rows that are already committed ([audit.Log.After]) and hands them to an
// [Exporter], whose queue is bounded and whose exports run on the SDK's
// own goroutine. A collector that is down, slow or answers errors costs
// records, which are counted and reported ([Stats]), never a verdict. The
// id of the last row shipped is kept durably in a small file beside the log
// ([StateFile], written atomically), so the next process that exports goes
// on from there: processes that answer an agent (a hook, `check`) only write
// their row and [Kick] a detached `command-safety log ship`, which does the
// network wait instead of them; `serve` ships in-process.
//
// Configuration ([Resolve]) comes from the user setting or managed policy
// `ml-ai.telemetry` (package settings) or the standard OTEL_EXPORTER_OTLP_*,
// OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME variables; export is off
// unless an endpoint is configured.
//
// It imports audit, gate, effects, settings and the OpenTelemetry SDK; it
// never prints and never exits. cmd/command-safety and jsonrpc import it.
package telemetry
