// Package jsonrpc is `command-safety serve`: JSON-RPC 2.0 over a byte stream
// (stdin/stdout) with LSP base-protocol framing, on go.lsp.dev/jsonrpc2. It
// carries the LSP lifecycle (initialize, initialized, shutdown, exit),
// `commandSafety/classify` and `commandSafety/resolve`, sends one
// `window/logMessage` per verdict, and takes its settings from the client
// (`workspace/configuration`) or, for clients without that capability, from
// the settings files, watched for changes. PROTOCOL.md documents the wire.
//
// Decisions come from gate.Decide only; the decision log is package audit;
// settings are package settings. The package imports gate, audit, settings,
// budgets, effects and go.lsp.dev/{jsonrpc2,protocol}; nothing imports it but
// cmd/command-safety.
//
// [Serve] never panics on input and never exits the process: it returns the
// exit code (0 after shutdown and exit, 1 otherwise) for the caller to use.
// Bad frames, bad JSON and bad params get JSON-RPC errors; a panic in a
// handler becomes an InternalError reply.
package jsonrpc
