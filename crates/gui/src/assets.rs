//! The page and its assets, embedded in the binary (no CDN, no build step): plain HTML, CSS
//! and JavaScript modules under `crates/gui/src/static/`.

/// One embedded file.
pub struct Asset {
    /// The path it is served at.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its bytes.
    pub body: &'static str,
}

macro_rules! asset {
    ($path:literal, $type:expr) => {
        Asset {
            path: $path,
            content_type: $type,
            body: include_str!(concat!("static", $path)),
        }
    };
}

const JS: &str = "text/javascript; charset=utf-8";

/// Every file of the page; `/index.html` is also served at `/`.
pub const ASSETS: &[Asset] = &[
    asset!("/index.html", "text/html; charset=utf-8"),
    asset!("/style.css", "text/css; charset=utf-8"),
    asset!("/app.js", JS),
    asset!("/ui.js", JS),
    asset!("/socket.js", JS),
    asset!("/nav.js", JS),
    asset!("/input.js", JS),
    asset!("/board.js", JS),
    asset!("/status.js", JS),
    asset!("/sidebar.js", JS),
    asset!("/controls.js", JS),
    asset!("/panels.js", JS),
    asset!("/options.js", JS),
    asset!("/review.js", JS),
    asset!("/movetimes.js", JS),
    asset!("/frame.js", JS),
    asset!("/svg.js", JS),
    asset!("/grid.js", JS),
    asset!("/rnb.js", JS),
    asset!("/arrange.js", JS),
    asset!("/variations.js", JS),
    asset!("/forced.js", JS),
    asset!("/duell.js", JS),
    asset!("/apocalypse.js", JS),
    asset!("/ludo.js", JS),
    asset!("/generic.js", JS),
    asset!("/favicon.svg", "image/svg+xml"),
];

/// The asset served at `path` (`/` is the page).
pub fn find(path: &str) -> Option<&'static Asset> {
    let path = if path == "/" { "/index.html" } else { path };
    ASSETS.iter().find(|a| a.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_every_module_it_imports_are_embedded() {
        assert!(find("/").unwrap().body.contains("<html"));
        assert!(find("/nothing.js").is_none());
        // Every `from './x.js'` of every module names an embedded file, and the page names
        // only embedded files and no address outside this server.
        for a in ASSETS {
            for part in a.body.split("from './").skip(1) {
                let name = &part[..part.find('\'').unwrap()];
                assert!(
                    find(&format!("/{name}")).is_some(),
                    "{} imports {name}",
                    a.path
                );
            }
            // (The SVG namespace is a name, not an address that is fetched.)
            let body = a.body.replace("http://www.w3.org/2000/svg", "");
            assert!(
                !body.contains("http://") && !body.contains("https://"),
                "{}",
                a.path
            );
        }
    }
}
