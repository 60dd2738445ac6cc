package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ml-ai/command-safety/settings"
)

// settingsScopes are the keys of the `ml-ai` settings section (SPEC §6) with
// their VS Code scope: "application" keys are user settings only, so a
// workspace cannot loosen the gate; "" is VS Code's default (window) scope.
var settingsScopes = map[string]string{
	"ml-ai.commandSafety": "",
	"ml-ai.agentBudgets":  "application",
	"ml-ai.decisionLog":   "application",
	"ml-ai.serverPath":    "application",
	"ml-ai.holdTimeout":   "application",
	"ml-ai.rules":         "", // window scope: a workspace may add rules, which only add effects
}

// TestExtensionManifest checks that extension/package.json contributes
// exactly the keys the settings package reads ([settings.Keys]), with the
// right scopes, and that ml-ai.commandSafety defaults to on.
func TestExtensionManifest(t *testing.T) {
	scoped := make([]string, 0, len(settingsScopes))
	for k := range settingsScopes {
		scoped = append(scoped, k)
	}
	sort.Strings(scoped)
	if diff := cmp.Diff(settings.Keys(), scoped); diff != "" {
		t.Errorf("settingsScopes in this test differ from settings.Keys() (-settings +test):\n%s", diff)
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "extension", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest struct {
		Contributes struct {
			Configuration struct {
				Properties map[string]struct {
					Type    any    `json:"type"` // "boolean" or ["string", "number"]
					Scope   string `json:"scope"`
					Default any    `json:"default"`
				} `json:"properties"`
			} `json:"configuration"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		t.Fatalf("extension/package.json: %v", err)
	}
	props := manifest.Contributes.Configuration.Properties
	got := map[string]string{}
	for k, p := range props {
		got[k] = p.Scope
	}
	if diff := cmp.Diff(settingsScopes, got); diff != "" {
		keys := make([]string, 0, len(got))
		for k := range got {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t.Errorf("package.json configuration keys/scopes differ from the settings keys (-want +got):\n%s\npackage.json has: %v", diff, keys)
	}
	cs := props["ml-ai.commandSafety"]
	if cs.Type != "boolean" || cs.Default != true {
		t.Errorf("ml-ai.commandSafety: type %v default %v, want boolean default true", cs.Type, cs.Default)
	}
	if ab := props["ml-ai.agentBudgets"]; ab.Type != "object" {
		t.Errorf("ml-ai.agentBudgets: type %v, want object", ab.Type)
	}
}
