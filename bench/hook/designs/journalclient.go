//go:build ignore

// Command journalclient is design 1's hook side at its floor: an otherwise
// empty Go program that appends a 1 KiB record to a file (O_APPEND) with one
// write and one fsync. Usage: journalclient FILE
package main

import (
	"bytes"
	"os"
)

func main() {
	rec := append(bytes.Repeat([]byte("x"), 1023), '\n')
	f, err := os.OpenFile(os.Args[1], os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		panic(err)
	}
	if _, err := f.Write(rec); err != nil {
		panic(err)
	}
	if err := f.Sync(); err != nil {
		panic(err)
	}
}
