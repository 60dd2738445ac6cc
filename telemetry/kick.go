package telemetry

import (
	"errors"
	"os/exec"
)

// Kick starts `argv...` (the gate's `log ship` for the log at logPath)
// detached from the calling process, unless another process holds the
// log's export lock (it ships, and will see the new rows). It returns as
// soon as the process is started, without waiting for it: a hook or
// `check` calls it after answering, so the network wait is the child's.
// The child gets no standard input or output (an agent reading the hook's
// stdout to its end is not kept waiting) and its own session, so the
// agent's signals to the hook's process group do not stop a flush midway.
func Kick(logPath, exe string, argv []string) error {
	l, err := tryLock(LockFile(logPath))
	if errors.Is(err, ErrLocked) {
		return nil
	}
	if err != nil {
		return err
	}
	l.unlock()
	cmd := &exec.Cmd{Path: exe, Args: argv, SysProcAttr: detached()}
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
