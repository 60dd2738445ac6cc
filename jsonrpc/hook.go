package jsonrpc

// testHook runs before each classify decision. It does nothing unless a test
// sets it, or the binary is built with the cstesthooks tag (tests only; see
// hook_testtag.go), which lets the serve tests slow a request down or make
// it panic.
var testHook = func(command string) {}
