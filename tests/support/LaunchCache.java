import java.nio.file.Path;
import java.util.Map;

/**
 * Where {@code ./jbang} keeps its cache, by the launcher's own rule: {@code $XDG_CACHE_HOME/haystack-jbang}
 * when XDG_CACHE_HOME is an absolute path, else {@code $HOME/.cache/haystack-jbang}. The environment
 * decides, as in the launcher, not {@code user.home}, which the JVM takes from the account database
 * (the launcher's choice too, but only where HOME is unset).
 */
final class LaunchCache {

    private LaunchCache() {}

    /** The cache folder for this process's environment. */
    static Path folder() {
        return folder(System.getenv());
    }

    /** The cache folder that a launcher started with {@code environment} uses. */
    static Path folder(Map<String, String> environment) {
        String xdg = environment.get("XDG_CACHE_HOME");
        if (xdg != null && xdg.startsWith("/")) {
            return Path.of(xdg, "haystack-jbang");
        }
        String home = environment.get("HOME");
        return Path.of(home != null && !home.isEmpty() ? home : System.getProperty("user.home"), ".cache", "haystack-jbang");
    }
}
