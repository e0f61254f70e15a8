package forge

import (
	"encoding/json"
	"fmt"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
)

// Draft releases are kept on the node (gitrepos) until published; these
// hold them to the module's stateless rules as they are saved, so that
// publishing one is not refused for what it held all along.

// CheckRelease holds a release's fields to release.create's text rules and
// field rules, as user errors.
func CheckRelease(p chainforge.ReleaseCreate) error {
	raw, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encode the release: %w", err)
	}
	if err := chainforge.CheckText(p.ActionName(), string(raw)); err != nil {
		return rejection(err)
	}
	return rejection(chainforge.CheckRelease(p))
}

// CheckAssetName holds an asset's name to release.asset.add's rule, as a
// user error.
func CheckAssetName(name string) error {
	return rejection(chainforge.CheckAssetName(name))
}
