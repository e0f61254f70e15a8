package state

// Reader is read access to state.
type Reader interface {
	Get(key []byte) ([]byte, error)
}

// Writer is write access to state.
type Writer interface {
	Set(key, value []byte) error
}

// Overlay buffers writes over a Reader without touching it. A transaction is
// applied on an overlay and flushed only if it succeeds, so a failed one
// leaves nothing half-written. CheckTx keeps one over committed state so that
// pending transactions from one account see each other's effects.
type Overlay struct {
	base   Reader
	writes map[string][]byte
	order  []string // first-write order: IAVL's root depends on insertion order
}

// NewOverlay returns an empty overlay over base.
func NewOverlay(base Reader) *Overlay {
	return &Overlay{base: base, writes: map[string][]byte{}}
}

// Get reads the overlay's own write of key, else base's value.
func (o *Overlay) Get(key []byte) ([]byte, error) {
	if v, ok := o.writes[string(key)]; ok {
		return v, nil
	}
	return o.base.Get(key)
}

// Set records a write in the overlay only.
func (o *Overlay) Set(key, value []byte) error {
	k := string(key)
	if _, seen := o.writes[k]; !seen {
		o.order = append(o.order, k)
	}
	o.writes[k] = append([]byte(nil), value...)
	return nil
}

// Flush writes the buffered writes to dst in the order they were first made.
func (o *Overlay) Flush(dst Writer) error {
	for _, k := range o.order {
		if err := dst.Set([]byte(k), o.writes[k]); err != nil {
			return err
		}
	}
	return nil
}
