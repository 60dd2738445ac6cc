package main

import "github.com/ml-ai/command-safety/gate"

// onWindows makes req a request from Git Bash on Windows.
func onWindows(req *gate.Request) { req.Platform = "windows" }
