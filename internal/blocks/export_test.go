package blocks

// GitLinks exposes the CAR walk's link reader to the tests.
var GitLinks = gitLinks
