/**
 * Charla's mark (the chat bubble on the brand square); decorative, hidden from screen readers. Its
 * own module, so a public page's island can show it without the app shell.
 */
export function Logo() {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" className="h-8 w-8">
      <rect width="32" height="32" rx="8" className="fill-brand-700" />
      <path d="M8 10h16v9H14l-5 4v-4H8z" fill="white" />
    </svg>
  );
}
