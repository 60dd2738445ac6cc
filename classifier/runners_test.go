package classifier

import (
	"strings"
	"testing"
)

// installedFS is emptyFS where every program is installed in /ws: in
// node_modules/.bin and in the virtualenv.
type installedFS struct{ emptyFS }

func (installedFS) IsFile(p string) bool {
	return strings.HasPrefix(p, "/ws/node_modules/.bin/") || strings.HasPrefix(p, "/ws/.venv/bin/")
}

// TestRunnersAsInstalled checks that a package runner naming a program the
// project installed classifies as that program run bare, and that the
// look-alikes keep the runner's own effects.
func TestRunnersAsInstalled(t *testing.T) {
	installed := tableOpts
	installed.FS = installedFS{}
	for runner, bare := range map[string]string{
		"npx tsc --noEmit": "tsc --noEmit", "npx tsc": "tsc", "npx eslint --fix src": "eslint --fix src",
		"npx jest --ci": "jest --ci", "npx vitest run": "vitest run", "npx playwright install": "playwright install",
		"npm exec -- prettier --check .": "prettier --check .", "pnpm exec eslint .": "eslint .", "bunx vitest": "vitest",
		"bun x tsc -p .": "tsc -p .", "uv run pytest -q": "pytest -q", "uv run mypy src": "mypy src",
		"uv run python -m pytest": "python -m pytest", "uv run ruff format .": "ruff format .", "hatch run pytest": "pytest",
		"npx --yes tsc --noEmit": "tsc --noEmit", "uv run --frozen pytest": "pytest",
	} {
		got, want := classSet(Classify(runner, installed)), classSet(Classify(bare, tableOpts))
		if got != want {
			t.Errorf("%q classifies as [%s] with the program installed, %q as [%s]", runner, got, bare, want)
		}
	}
	for _, keeps := range []string{
		"npx -p typescript tsc --noEmit", "npx tsc@5 --noEmit", "npx @scope/tool x", "pnpm dlx tsc", "pnpx tsc",
		"npx rm -rf build", "npx --prefix /tmp tsc", "uv run --with rich pytest", "uv run --python 3.12 pytest",
		"yarn tsc", "yarn run jest", "pnpm tsc --noEmit", // no manifest: the name may be a script
	} {
		r := Classify(keeps, installed)
		if got := classSet(r); got == "verify" || got == "write-inside-workspace" || got == "" {
			t.Errorf("%q classifies as [%s] with the program installed, want the runner's own effects", keeps, got)
		}
	}
	// A program the table does not know is the project's file.
	if got := classSet(Classify("npx prisma migrate dev", installed)); got != "opaque-low" {
		t.Errorf("npx prisma migrate dev = [%s], want [opaque-low]", got)
	}
}
