// The labels feature's public entry point: a repository's label
// management (its settings) and a label as a coloured chip.
export { LabelChip, LabelSettings } from './LabelSettings'
