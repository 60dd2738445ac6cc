//go:build ignore

// Command sockclient is design 2's hook side at its floor: an otherwise
// empty Go program that hands a 1 KiB record to sockserve and waits for its
// durable "ok". Usage: sockclient SOCK
package main

import (
	"bufio"
	"bytes"
	"net"
	"os"
)

func main() {
	rec := append(bytes.Repeat([]byte("x"), 1023), '\n')
	c, err := net.Dial("unix", os.Args[1])
	if err != nil {
		panic(err)
	}
	if _, err := c.Write(rec); err != nil {
		panic(err)
	}
	if _, err := bufio.NewReader(c).ReadBytes('\n'); err != nil {
		panic(err)
	}
}
