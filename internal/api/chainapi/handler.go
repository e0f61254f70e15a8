// Package chainapi serves the chain's routes: its parameters, transactions
// and accounts, the chain reads (blocks, ledger, nodes), governance,
// grants, rewards, bounties and delegations.
package chainapi

import "github.com/dforge/dforge/internal/api"

// Handler serves the chain's routes over the API's services.
type Handler struct {
	*api.API
}
