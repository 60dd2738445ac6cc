package classifier

import (
	"bufio"
	"fmt"
	"os"
	"testing"
)

func TestTry(t *testing.T) {
	f, err := os.Open("/tmp/try.txt")
	if err != nil {
		t.Skip()
	}
	PanicOnBugs = true
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cmd := sc.Text()
		fmt.Printf("== %s\n", cmd)
		r := Classify(cmd, Options{Cwd: "/home/u/ws", Workspaces: []string{"/home/u/ws"}, Home: "/home/u"})
		for _, p := range r.Parts {
			fmt.Printf("   %-24s %-26q %-10s %s | %s\n", p.Class, p.Text, p.Program, p.Refusal, p.Reason)
		}
	}
}
