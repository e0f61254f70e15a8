package app

// The chain modules that register forge actions into the forge module's
// one actions table (forge.Register, from their init). The app applies
// every forge action through that table, so a module missing here would
// leave its actions unknown: TestEveryDocumentedActionHasAHandler fails
// then, for each action a module's README documents.
import (
	_ "github.com/dforge/dforge/internal/chain/calendar"
	_ "github.com/dforge/dforge/internal/chain/emails"
	_ "github.com/dforge/dforge/internal/chain/follows"
	_ "github.com/dforge/dforge/internal/chain/forum"
	_ "github.com/dforge/dforge/internal/chain/listing"
	_ "github.com/dforge/dforge/internal/chain/sshkeys"
)
