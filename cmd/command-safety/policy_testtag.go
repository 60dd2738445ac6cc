//go:build cstesthooks

package main

import "os"

// In test builds only (see testPolicyFile): CS_TEST_POLICY_FILE moves the
// managed policy.
func init() { testPolicyFile = func() string { return os.Getenv("CS_TEST_POLICY_FILE") } }
