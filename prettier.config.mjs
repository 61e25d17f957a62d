// npm run format (and format:check): Prettier in the style the code is written in — double quotes,
// semicolons, trailing commas, two spaces, and lines up to 180 characters: 99% of code lines fit in 176,
// and hand-wrapped JSX prose breaks at 172–177. A narrower width would rewrap thousands of lines.
/** @type {import("prettier").Config} */
export default {
  printWidth: 180,
  tabWidth: 2,
  semi: true,
  singleQuote: false,
  trailingComma: "all",
  arrowParens: "always",
};
