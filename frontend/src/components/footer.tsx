/** The footer shown on every page. */
export function Footer() {
  return (
    <footer className="site-footer">
      <p>RoboHornets · FRC Team 1209</p>
    </footer>
  );
}
