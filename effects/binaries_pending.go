package effects

// The families below are being written (issue 2); they are empty for now.

var systemTools []Program
var networkTools []Program
var archiveTools []Program
var containerPrograms []Program
var cloudPrograms []Program
var packagePrograms []Program
var servicePrograms []Program
var editorPrograms []Program
