// Placeholder until this screen is written.
export default function Screen() {
  return null
}
