import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * What Maven Central requires of a release, checked on the directory the release profile deployed into (a Maven
 * repository's layout), before anything is uploaded. For every artifact published (io/flushcheck/ARTIFACT/VERSION):
 * the pom, without SNAPSHOT in any of its elements, whose effective model has a name, description, url, licenses,
 * developers and scm (those of the parent, not a module's variant of them); beside a jar, its sources and javadoc
 * jars, with sources and pages in them, and a module name in the jar's manifest; for every file, a signature that
 * gpg verifies as made by the expected key, and an .md5 and a .sha1 that match it. The artifacts published are exactly the
 * parent, the bom and what the bom lists. Each problem is one line naming the file and what it lacks.
 *
 * <p>Usage: {@code java .ci/ReleaseBundleCheck.java STAGING VERSION EFFECTIVE_POMS FINGERPRINT}, where
 * EFFECTIVE_POMS is what {@code mvn help:effective-pom -Doutput=...} wrote for the same build, and gpg's home
 * (GNUPGHOME) holds the key whose FINGERPRINT signed. Exits 1 with the problems, 0 with a summary.
 *
 * <p>{@code java .ci/ReleaseBundleCheck.java --consumer-pom STAGING VERSION LOCAL_REPOSITORY} prints instead the
 * pom of a project that imports the staged bom and depends on every staged jar, resolving them from STAGING and
 * the rest from LOCAL_REPOSITORY (then Maven Central): what a user's build would see.
 */
public final class ReleaseBundleCheck {

    private static final String GROUP_PATH = "io/flushcheck";
    private static final String GROUP_ID = "io.flushcheck";
    private static final String PARENT = "flushcheck-parent";
    private static final String BOM = "flushcheck-bom";
    private static final Set<String> SIDE_FILES = Set.of(".asc", ".md5", ".sha1", ".sha256", ".sha512");

    private final Path staging;
    private final String version;
    private final List<String> problems = new ArrayList<>();

    private ReleaseBundleCheck(Path staging, String version) {
        this.staging = staging;
        this.version = version;
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 4 && args[0].equals("--consumer-pom")) {
            ReleaseBundleCheck check = new ReleaseBundleCheck(Path.of(args[1]), args[2]);
            System.out.print(check.consumerPom(Path.of(args[3])));
            return;
        }
        if (args.length != 4) {
            System.err.println("usage: java ReleaseBundleCheck.java STAGING VERSION EFFECTIVE_POMS FINGERPRINT\n"
                    + "       java ReleaseBundleCheck.java --consumer-pom STAGING VERSION LOCAL_REPOSITORY");
            System.exit(2);
        }
        ReleaseBundleCheck check = new ReleaseBundleCheck(Path.of(args[0]), args[1]);
        int files = check.run(Path.of(args[2]), args[3]);
        if (!check.problems.isEmpty()) {
            System.err.println("release bundle in " + check.staging + ": " + check.problems.size() + " problem(s):");
            check.problems.forEach(p -> System.err.println("  " + p));
            System.exit(1);
        }
        System.out.println("release bundle in " + check.staging + ": " + check.components().size() + " artifacts of "
                + check.version + ", " + files + " files, each signed and checksummed");
    }

    /** Runs every check; returns the number of files checked. */
    private int run(Path effectivePoms, String fingerprint) throws Exception {
        Map<String, Path> components = components();
        if (components.isEmpty()) {
            problems.add(staging.resolve(GROUP_PATH) + ": no artifact of version " + version);
            return 0;
        }
        strayFiles();
        publishedAsTheBomSays(components);
        Map<String, Element> effective = effectiveModels(effectivePoms);
        Element parent = effective.get(PARENT);
        int files = 0;
        for (Map.Entry<String, Path> c : components.entrySet()) {
            Path pom = c.getValue().resolve(c.getKey() + "-" + version + ".pom");
            if (!Files.isRegularFile(pom)) {
                problems.add(pom + ": missing");
                continue;
            }
            String snapshot = snapshotIn(parse(pom).getDocumentElement());
            if (snapshot != null) {
                problems.add(pom + ": names a SNAPSHOT: " + snapshot);
            }
            Element model = effective.get(c.getKey());
            if (model == null) {
                problems.add(pom + ": not in the build's effective poms " + effectivePoms);
            } else {
                metadata(pom, model, parent);
            }
            String packaging = text(parse(pom).getDocumentElement(), "packaging");
            if (packaging.isEmpty() || packaging.equals("jar")) {
                jarWithSourcesAndJavadoc(c.getKey(), c.getValue());
            }
            files += signedAndChecksummed(c.getValue(), fingerprint);
        }
        return files;
    }

    /** io/flushcheck/ARTIFACT/VERSION directories, by artifactId. */
    private Map<String, Path> components() throws IOException {
        Map<String, Path> found = new TreeMap<>();
        Path group = staging.resolve(GROUP_PATH);
        if (!Files.isDirectory(group)) {
            return found;
        }
        try (Stream<Path> artifacts = Files.list(group)) {
            for (Path artifact : artifacts.filter(Files::isDirectory).toList()) {
                Path dir = artifact.resolve(version);
                if (Files.isDirectory(dir)) {
                    found.put(artifact.getFileName().toString(), dir);
                }
            }
        }
        return found;
    }

    /** Files outside io/flushcheck/ARTIFACT/VERSION, other than the repository's metadata. */
    private void strayFiles() throws IOException {
        try (Stream<Path> all = Files.walk(staging)) {
            for (Path f : all.filter(Files::isRegularFile).toList()) {
                Path rel = staging.relativize(f);
                boolean metadata = f.getFileName().toString().startsWith("maven-metadata.xml");
                boolean inComponent = rel.startsWith(GROUP_PATH) && rel.getNameCount() == 5
                        && rel.getName(3).toString().equals(version);
                if (!metadata && !inComponent) {
                    problems.add(f + ": not an artifact of " + GROUP_ID + " " + version);
                }
            }
        }
    }

    /** The artifacts staged are the parent, the bom and exactly those the bom lists. */
    private void publishedAsTheBomSays(Map<String, Path> components) throws Exception {
        Path bomPom = staging.resolve(GROUP_PATH).resolve(BOM).resolve(version).resolve(BOM + "-" + version + ".pom");
        if (!Files.isRegularFile(bomPom)) {
            problems.add(bomPom + ": missing: the bom lists what a release publishes");
            return;
        }
        Set<String> listed = new TreeSet<>();
        Element management = child(parse(bomPom).getDocumentElement(), "dependencyManagement");
        for (Element dependency : children(child(management, "dependencies"), "dependency")) {
            if (text(dependency, "groupId").equals(GROUP_ID)) {
                listed.add(text(dependency, "artifactId"));
            }
        }
        Set<String> staged = new TreeSet<>(components.keySet());
        for (String required : List.of(PARENT, BOM)) {
            if (!staged.remove(required)) {
                problems.add(required + ": not staged");
            }
        }
        for (String a : staged) {
            if (!listed.contains(a)) {
                problems.add(a + ": staged, but " + BOM + " does not list it: list it there, or set maven.deploy.skip"
                        + " in a module that is not published");
            }
        }
        for (String a : listed) {
            if (!staged.contains(a)) {
                problems.add(a + ": listed in " + BOM + ", but not staged");
            }
        }
    }

    /** Each project of help:effective-pom's output, by artifactId. */
    private Map<String, Element> effectiveModels(Path effectivePoms) throws Exception {
        Map<String, Element> models = new TreeMap<>();
        if (!Files.isRegularFile(effectivePoms)) {
            problems.add(effectivePoms + ": missing");
            return models;
        }
        Element root = parse(effectivePoms).getDocumentElement();
        List<Element> projects = root.getTagName().equals("projects") ? children(root, "project") : List.of(root);
        for (Element project : projects) {
            if (text(project, "groupId").equals(GROUP_ID)) {
                models.put(text(project, "artifactId"), project);
            }
        }
        return models;
    }

    /** What Central requires of a pom, in its effective model; url and scm as the parent's (not a module's path). */
    private void metadata(Path pom, Element model, Element parent) {
        for (String field : List.of("name", "description", "url")) {
            if (text(model, field).isBlank()) {
                problems.add(pom + ": no <" + field + ">");
            }
        }
        List<Element> licenses = children(child(model, "licenses"), "license");
        if (licenses.isEmpty()) {
            problems.add(pom + ": no <licenses><license>");
        }
        for (Element license : licenses) {
            if (text(license, "name").isBlank() || text(license, "url").isBlank()) {
                problems.add(pom + ": a <license> without <name> or <url>");
            }
        }
        List<Element> developers = children(child(model, "developers"), "developer");
        if (developers.isEmpty()) {
            problems.add(pom + ": no <developers><developer>");
        }
        for (Element developer : developers) {
            if (text(developer, "name").isBlank()) {
                problems.add(pom + ": a <developer> without <name>");
            }
        }
        Element scm = child(model, "scm");
        for (String field : List.of("url", "connection", "developerConnection")) {
            if (text(scm, field).isBlank()) {
                problems.add(pom + ": no <scm><" + field + ">");
            } else if (parent != null && !text(scm, field).equals(text(child(parent, "scm"), field))) {
                problems.add(pom + ": <scm><" + field + "> is " + text(scm, field) + ", not the project's "
                        + text(child(parent, "scm"), field));
            }
        }
        if (parent != null && !text(model, "url").isBlank() && !text(model, "url").equals(text(parent, "url"))) {
            problems.add(pom + ": <url> is " + text(model, "url") + ", not the project's " + text(parent, "url"));
        }
    }

    /** The jar, its sources (with .java files) and its javadoc (with index.html), the jar naming its module. */
    private void jarWithSourcesAndJavadoc(String artifact, Path dir) throws IOException {
        Path jar = dir.resolve(artifact + "-" + version + ".jar");
        Path sources = dir.resolve(artifact + "-" + version + "-sources.jar");
        Path javadoc = dir.resolve(artifact + "-" + version + "-javadoc.jar");
        if (!Files.isRegularFile(jar)) {
            problems.add(jar + ": missing");
        } else {
            try (JarFile j = new JarFile(jar.toFile())) {
                String name = j.getManifest() == null ? null
                        : j.getManifest().getMainAttributes().getValue("Automatic-Module-Name");
                if (name == null || name.isBlank()) {
                    problems.add(jar + ": no Automatic-Module-Name in its manifest");
                }
            }
        }
        if (!Files.isRegularFile(sources)) {
            problems.add(sources + ": missing");
        } else if (!hasEntry(sources, e -> e.endsWith(".java"))) {
            problems.add(sources + ": no .java file in it");
        }
        if (!Files.isRegularFile(javadoc)) {
            problems.add(javadoc + ": missing");
        } else if (!hasEntry(javadoc, e -> e.equals("index.html"))) {
            problems.add(javadoc + ": no index.html in it");
        }
    }

    private static boolean hasEntry(Path jar, java.util.function.Predicate<String> name) throws IOException {
        try (JarFile j = new JarFile(jar.toFile())) {
            return j.stream().anyMatch(e -> name.test(e.getName()));
        }
    }

    /** Every file of the directory but signatures and checksums: its .asc verified, its .md5 and .sha1 matching. */
    private int signedAndChecksummed(Path dir, String fingerprint) throws Exception {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(Files::isRegularFile)
                    .filter(f -> SIDE_FILES.stream().noneMatch(s -> f.getFileName().toString().endsWith(s)))
                    .filter(f -> !f.getFileName().toString().startsWith("maven-metadata.xml"))
                    .sorted().toList();
        }
        for (Path f : files) {
            checksum(f, ".md5", "MD5");
            checksum(f, ".sha1", "SHA-1");
            Path asc = Path.of(f + ".asc");
            if (!Files.isRegularFile(asc)) {
                problems.add(asc + ": missing");
            } else {
                verify(f, asc, fingerprint);
            }
        }
        return files.size();
    }

    private void checksum(Path file, String suffix, String algorithm) throws IOException, NoSuchAlgorithmException {
        Path sum = Path.of(file + suffix);
        if (!Files.isRegularFile(sum)) {
            problems.add(sum + ": missing");
            return;
        }
        MessageDigest digest = MessageDigest.getInstance(algorithm);
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
        }
        String expected = HexFormat.of().formatHex(digest.digest());
        String[] recorded = Files.readString(sum).trim().split("\\s+");
        if (!recorded[0].equalsIgnoreCase(expected)) {
            problems.add(sum + ": " + recorded[0] + ", but the file's " + algorithm + " is " + expected);
        }
    }

    /** gpg --verify, and the signature's key is the one expected (gpg's VALIDSIG status line names it). */
    private void verify(Path file, Path asc, String fingerprint) throws IOException, InterruptedException {
        Process gpg = new ProcessBuilder("gpg", "--batch", "--status-fd", "1", "--verify", asc.toString(),
                file.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String status = new String(gpg.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!gpg.waitFor(60, TimeUnit.SECONDS)) {
            gpg.destroyForcibly();
            problems.add(asc + ": gpg --verify did not finish in 60 s");
            return;
        }
        boolean valid = status.lines().anyMatch(l -> l.startsWith("[GNUPG:] VALIDSIG " + fingerprint + " "));
        if (gpg.exitValue() != 0 || !valid) {
            String why = status.lines().filter(l -> l.matches("\\[GNUPG:] (BADSIG|ERRSIG|NODATA|VALIDSIG|NO_PUBKEY).*"))
                    .findFirst().orElse("gpg exit " + gpg.exitValue());
            problems.add(asc + ": not a valid signature of " + file.getFileName() + " by " + fingerprint
                    + " (" + why + ")");
        }
    }

    /** A user's project: the staged bom imported, every staged jar a dependency. */
    private String consumerPom(Path localRepository) throws Exception {
        StringBuilder dependencies = new StringBuilder();
        for (Map.Entry<String, Path> c : components().entrySet()) {
            if (Files.isRegularFile(c.getValue().resolve(c.getKey() + "-" + version + ".jar"))) {
                dependencies.append("    <dependency><groupId>").append(GROUP_ID).append("</groupId><artifactId>")
                        .append(c.getKey()).append("</artifactId></dependency>\n");
            }
        }
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>example</groupId>
                  <artifactId>flushcheck-consumer</artifactId>
                  <version>1</version>
                  <repositories>
                    <repository><id>flushcheck-staging</id><url>%s</url></repository>
                    <repository><id>local-repository</id><url>%s</url></repository>
                  </repositories>
                  <pluginRepositories>
                    <pluginRepository><id>local-repository</id><url>%s</url></pluginRepository>
                  </pluginRepositories>
                  <dependencyManagement>
                    <dependencies>
                      <dependency>
                        <groupId>%s</groupId><artifactId>%s</artifactId><version>%s</version>
                        <type>pom</type><scope>import</scope>
                      </dependency>
                    </dependencies>
                  </dependencyManagement>
                  <dependencies>
                %s  </dependencies>
                </project>
                """.formatted(staging.toUri(), localRepository.toUri(), localRepository.toUri(), GROUP_ID, BOM, version,
                dependencies);
    }

    /** The first element whose own text names a SNAPSHOT (comments aside), as {@code <tag>text</tag>}, else null. */
    private static String snapshotIn(Element e) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n.getNodeType() == Node.TEXT_NODE && n.getTextContent().contains("SNAPSHOT")) {
                return "<" + e.getTagName() + ">" + n.getTextContent().trim() + "</" + e.getTagName() + ">";
            }
            if (n instanceof Element child) {
                String found = snapshotIn(child);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static Document parse(Path xml) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(false);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(xml.toFile());
    }

    private static List<Element> children(Element parent, String tag) {
        List<Element> found = new ArrayList<>();
        if (parent == null) {
            return found;
        }
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(tag)) {
                found.add(e);
            }
        }
        return found;
    }

    private static Element child(Element parent, String tag) {
        List<Element> found = children(parent, tag);
        return found.isEmpty() ? null : found.get(0);
    }

    private static String text(Element parent, String tag) {
        Element e = child(parent, tag);
        return e == null ? "" : e.getTextContent().trim();
    }
}
