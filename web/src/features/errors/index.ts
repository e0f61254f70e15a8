// The errors feature's public entry point: the Not Found page, which other screens show for a missing item.
export { default as NotFoundScreen } from './NotFoundScreen'
