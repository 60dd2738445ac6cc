// Runs the e2e runner once the workbench has started. Not a test-mode
// extension host: dialogs are real, so the driver can see and cancel them.
exports.activate = function () {
  const runner = process.env.CS_E2E_RUNNER;
  if (!runner) return;
  setTimeout(() => {
    require(runner).run().catch((e) => console.error("e2e runner failed", e));
  }, 0);
};
exports.deactivate = function () {};
