package jsonrpc

// Method names on the wire. extension/src/protocol.ts mirrors them.
const (
	// MethodInitialize is the LSP initialize request (client → server).
	MethodInitialize = "initialize"
	// MethodInitialized is the LSP initialized notification (client → server).
	MethodInitialized = "initialized"
	// MethodShutdown is the LSP shutdown request (client → server).
	MethodShutdown = "shutdown"
	// MethodExit is the LSP exit notification (client → server).
	MethodExit = "exit"
	// MethodCancelRequest is the `$/cancelRequest` notification (client → server).
	MethodCancelRequest = "$/cancelRequest"
	// MethodClassify is the classify request (client → server): a command in, a verdict out.
	MethodClassify = "commandSafety/classify"
	// MethodResolve is the resolve request (client → server): a human's answer to a prompt.
	MethodResolve = "commandSafety/resolve"
	// MethodDidChangeConfiguration is the LSP notification that settings changed (client → server).
	MethodDidChangeConfiguration = "workspace/didChangeConfiguration"
	// MethodConfiguration is the LSP request for settings (server → client).
	MethodConfiguration = "workspace/configuration"
	// MethodLogMessage is the LSP log notification (server → client): one line per verdict.
	MethodLogMessage = "window/logMessage"

	// MethodHeld (server → client notification, opt-in with
	// initializationOptions.held) lists the commands hooks in hold mode wait on.
	MethodHeld = "commandSafety/held"
)

// ConfigSection is the settings section the server asks the client for.
const ConfigSection = "ml-ai"

// JSON-RPC and LSP error codes used on the wire.
const (
	codeParseError           = -32700 // invalid JSON
	codeInvalidRequest       = -32600 // not a JSON-RPC request; oversized; after shutdown
	codeMethodNotFound       = -32601 // unknown method
	codeInvalidParams        = -32602 // params do not match the method
	codeInternalError        = -32603 // a handler failed (a panic)
	codeServerNotInitialized = -32002 // a request before initialize
	codeRequestCancelled     = -32800 // the client cancelled the request
	codeRequestFailed        = -32803 // a well-formed request that could not be carried out (resolve)
)
