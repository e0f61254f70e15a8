package grants

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"
)

// Limits of a grant's terms.
const (
	MaxMilestones  = 20
	MaxReviewers   = 15
	MaxDescription = 1_000
)

// ErrInvalid is a grant proposal's payload that breaks a rule; governance
// refuses the proposal with it.
var ErrInvalid = errors.New("invalid grant")

// PayloadKeys are the members of a grant proposal's payload (a JSON object
// of strings, as every proposal's): milestones is a JSON array of
// {"description", "amount", "recipient"}, reviewers the reviewers' 0x
// addresses separated by commas, expiry a block height.
var PayloadKeys = []string{"expiry", "milestones", "reviewers"}

// Terms are a grant proposal's payload, parsed and checked.
type Terms struct {
	Milestones []Milestone
	Reviewers  []common.Address
	Expiry     uint64
	Total      uint64
}

// milestoneJSON is one milestone as the payload spells it; the amount is
// a decimal string so no JSON number loses precision.
type milestoneJSON struct {
	Description string `json:"description"`
	Amount      string `json:"amount"`
	Recipient   string `json:"recipient"`
}

// ParseTerms reads and checks a grant proposal's payload. The total must
// fit a signed 64-bit integer, so every figure projects into SQL.
func ParseTerms(m map[string]string) (Terms, error) {
	var t Terms
	var err error
	if t.Milestones, t.Total, err = parseMilestones(m["milestones"]); err != nil {
		return Terms{}, err
	}
	if t.Reviewers, err = parseReviewers(m["reviewers"]); err != nil {
		return Terms{}, err
	}
	if t.Expiry, err = strconv.ParseUint(m["expiry"], 10, 63); err != nil || m["expiry"] != strconv.FormatUint(t.Expiry, 10) || t.Expiry == 0 {
		return Terms{}, fmt.Errorf("%w: expiry must be a block height, a whole number from 1 up", ErrInvalid)
	}
	return t, nil
}

func parseMilestones(raw string) ([]Milestone, uint64, error) {
	var list []milestoneJSON
	dec := json.NewDecoder(bytes.NewReader([]byte(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&list); err != nil || dec.More() {
		return nil, 0, fmt.Errorf("%w: milestones must be a JSON array of {\"description\", \"amount\", \"recipient\"} with string values", ErrInvalid)
	}
	if len(list) < 1 || len(list) > MaxMilestones {
		return nil, 0, fmt.Errorf("%w: a grant has 1 to %d milestones, not %d", ErrInvalid, MaxMilestones, len(list))
	}
	out := make([]Milestone, len(list))
	var total uint64
	for i, m := range list {
		if err := checkDescription(m.Description); err != nil {
			return nil, 0, fmt.Errorf("%w: milestones[%d].description %v", ErrInvalid, i, err)
		}
		amount, err := strconv.ParseUint(m.Amount, 10, 64)
		if err != nil || m.Amount != strconv.FormatUint(amount, 10) || amount == 0 {
			return nil, 0, fmt.Errorf("%w: milestones[%d].amount must be a whole number of micro-units above zero", ErrInvalid, i)
		}
		if amount > math.MaxInt64-total {
			return nil, 0, fmt.Errorf("%w: milestones[%d].amount makes the total overflow (the most is %d)", ErrInvalid, i, int64(math.MaxInt64))
		}
		total += amount
		to, ok := address(m.Recipient)
		if !ok {
			return nil, 0, fmt.Errorf("%w: milestones[%d].recipient must be a 0x address other than zero", ErrInvalid, i)
		}
		out[i] = Milestone{Description: m.Description, Amount: amount, Recipient: to}
	}
	return out, total, nil
}

// checkDescription allows 1 to MaxDescription characters of valid UTF-8
// whose only control character is the newline.
func checkDescription(s string) error {
	if strings.TrimSpace(s) == "" || utf8.RuneCountInString(s) > MaxDescription {
		return fmt.Errorf("must be 1 to %d characters", MaxDescription)
	}
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size != 3 {
				return fmt.Errorf("is not valid UTF-8 (byte %d)", i)
			}
		}
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			return fmt.Errorf("has the control character U+%04X; only newlines may appear", r)
		}
	}
	return nil
}

func parseReviewers(raw string) ([]common.Address, error) {
	parts := strings.Split(raw, ",")
	if strings.TrimSpace(raw) == "" || len(parts) > MaxReviewers {
		return nil, fmt.Errorf("%w: reviewers must be 1 to %d 0x addresses separated by commas", ErrInvalid, MaxReviewers)
	}
	out := make([]common.Address, 0, len(parts))
	for i, p := range parts {
		a, ok := address(strings.TrimSpace(p))
		if !ok {
			return nil, fmt.Errorf("%w: reviewers[%d] must be a 0x address other than zero", ErrInvalid, i)
		}
		for _, seen := range out {
			if seen == a {
				return nil, fmt.Errorf("%w: reviewers[%d] (%s) is named twice", ErrInvalid, i, a.Hex())
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// address reads 0x and 40 hex digits in any case; the zero address is
// refused, since nobody holds its key.
func address(s string) (common.Address, bool) {
	if len(s) != 2+2*common.AddressLength || !strings.EqualFold(s[:2], "0x") || !common.IsHexAddress(s) {
		return common.Address{}, false
	}
	a := common.HexToAddress(s)
	return a, a != (common.Address{})
}
