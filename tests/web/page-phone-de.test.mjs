// page-phone-de.test.mjs: the game view on phones (issue 30 item 5) in de with long
// names, at 360×640 and 390×844 (page-harness.mjs phoneSuite: the action bar on the
// screen, nothing to scroll sideways, the followers column not cut, axe-core, Confirm from
// the bar; the home page). One language a file, each within make test-web's 150 s.
import { phoneSuite } from './page-harness.mjs';

phoneSuite('tilehall_webphone_de', ['de']);
