// Package splitshapes holds shapes outside the API, as
// internal/gitea/structs holds Gitea's: splitapi names them with aliases.
package splitshapes

// Gadget is a gadget with its part.
type Gadget struct {
	ID   int64 `json:"id"`
	Part Part  `json:"part"`
	// Spare is a second part, when it has one.
	Spare *Part `json:"spare"`
}

// Part is what a gadget is made of.
type Part struct {
	Name string `json:"name"`
}
