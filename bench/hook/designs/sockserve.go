//go:build ignore

// Command sockserve is design 2's resident writer, reduced to its floor: it
// accepts connections on a unix socket, reads one record, appends it to a
// file with one write and one fsync, and answers "ok" (what serve would do
// with a verdict a hook handed it, without SQLite). Usage: sockserve SOCK FILE
package main

import (
	"bufio"
	"net"
	"os"
)

func main() {
	os.Remove(os.Args[1])
	ln, err := net.Listen("unix", os.Args[1])
	if err != nil {
		panic(err)
	}
	f, err := os.OpenFile(os.Args[2], os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		panic(err)
	}
	for {
		c, err := ln.Accept()
		if err != nil {
			continue
		}
		go func() {
			defer c.Close()
			line, err := bufio.NewReader(c).ReadBytes('\n')
			if err != nil {
				return
			}
			if _, err := f.Write(line); err != nil || f.Sync() != nil {
				return
			}
			c.Write([]byte("ok\n"))
		}()
	}
}
