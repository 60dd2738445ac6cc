//go:build cstesthooks

package main

import (
	"os"

	"github.com/ml-ai/command-safety/hookrun"
)

// In test builds only (see testPolicyFile): CS_TEST_POLICY_FILE moves the
// managed policy.
func init() { hookrun.TestPolicyFile = func() string { return os.Getenv("CS_TEST_POLICY_FILE") } }
